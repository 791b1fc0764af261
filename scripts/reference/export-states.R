# The board states the reference implementation of PPN computes for a file, in the JSON
# schema of tests/conformance/README.md: `Rscript export-states.R FILE.ppn > FILE.json`.
#
# Needs R (Debian: r-base-core with r-cran-dplyr, r-cran-stringr, r-cran-tibble, r-cran-glue,
# r-cran-yaml, r-cran-rlang, r-cran-purrr, r-cran-tidyr, r-cran-withr, r-cran-r6,
# r-cran-snakecase, r-cran-jsonlite) and the R packages bracer, affiner, ppdf and ppn built
# from their repositories (trevorld/bracer, trevorld/affiner, piecepackr/ppdf,
# piecepackr/ppn) with `R CMD INSTALL --library=DIR`; set R_LIBS to DIR.
# Done so with Debian 12's R 4.2.2 and those repositories' sources (bracer 1.2.3-0, affiner
# 0.3.0-5, ppdf 0.3.0-20, ppn 0.3.0-2): it reproduces every file of tests/conformance/queries.
suppressMessages({library(ppn); library(jsonlite)})
args <- commandArgs(trailingOnly = TRUE)
file <- args[1]
games <- tryCatch(read_ppn(file), error = function(e) e)
out <- list(file = basename(file), games = list())
if (inherits(games, "error")) {
  out$games <- list(list(error = conditionMessage(games)))
} else {
  for (game in games) {
    states <- list()
    for (m in names(game$dfs)) {
      df <- as.data.frame(game$dfs[[m]])
      pieces <- lapply(seq_len(nrow(df)), function(i) list(
        piece_side = df$piece_side[i], suit = df$suit[i], rank = df$rank[i], cfg = df$cfg[i],
        x = df$x[i], y = df$y[i], angle = df$angle[i] %% 360))
      text <- if (!is.null(game$moves[[m]])) game$moves[[m]] else ""
      comment <- if (!is.null(game$comments[[m]])) game$comments[[m]] else ""
      states[[length(states) + 1]] <- list(move = m, text = text, comment = comment, pieces = pieces)
    }
    out$games[[length(out$games) + 1]] <- list(states = states)
  }
}
cat(toJSON(out, auto_unbox = TRUE, digits = NA, null = "null"))
