; XAY files are YAML.
; inherits: yaml
