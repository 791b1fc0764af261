; The metadata block is a YAML mapping.
((metadata) @injection.content
  (#set! injection.language "yaml"))
