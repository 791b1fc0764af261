; inherits: xiangqi
