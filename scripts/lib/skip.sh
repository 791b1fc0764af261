# Sourced by the test scripts. `skip_test NAME REASON...` says loudly that the test NAME is
# skipped and why, records it for the summary at the end of scripts/test, and exits 0.
# Where skips are forbidden (PPN_FORBID_SKIPS=1, as .ci/run sets) it exits 1 instead, unless
# NAME is one of the comma-separated PPN_ALLOWED_SKIPS.
skip_test() {
  local name=$1
  shift
  echo "SKIPPED: the $name test: $*"
  if [ -n "${PPN_TEST_SKIPS:-}" ]; then
    printf '%s: %s\n' "$name" "$*" >> "$PPN_TEST_SKIPS"
  fi
  if [ "${PPN_FORBID_SKIPS:-}" = 1 ] && [[ ",${PPN_ALLOWED_SKIPS:-}," != *",$name,"* ]]; then
    echo "the $name test may not be skipped here (PPN_FORBID_SKIPS=1; PPN_ALLOWED_SKIPS=${PPN_ALLOWED_SKIPS:-})" >&2
    exit 1
  fi
  exit 0
}
