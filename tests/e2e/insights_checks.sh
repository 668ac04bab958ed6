# Checks of `iodfg insights` on one directory of traces per pattern of tests/tools/iopattern
# (sourced by insights.sh on the recorded traces and by insights_live.sh on fresh ones).
#   insights_checks DIR   (DIR/<pattern>/<pattern>_host1_<rank>.st)

# rule_num DIR RULE NUMBER: the number of the first finding of RULE ("" when none)
rule_num() {
  "$IODFG_BIN" insights -q --format json "$1" >"$T/rn.json"
  "$PY" - "$T/rn.json" "$2" "$3" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
f = [f for f in j["groups"][0]["findings"] if f["rule"] == sys.argv[2]]
print(f[0]["numbers"].get(sys.argv[3], "") if f else "")
PY
}
# rules DIR [OPTIONS]: the rules of the findings, sorted, space-separated
rules() {
  rules_dir=$1; shift
  "$IODFG_BIN" insights -q --format json "$@" "$rules_dir" >"$T/r.json"
  json "$T/r.json" '" ".join(sorted(set(f["rule"] for f in j["groups"][0]["findings"])))'
}
# has RULE DIR [OPTIONS]: a finding of RULE; lacks: none
has() { has_r=$1; has_d=$2; shift 2; case " $(rules "$has_d" "$@") " in *" $has_r "*) return 0 ;; esac; return 1; }
lacks() { ! has "$@"; }

insights_checks() {
  D=$1
  check "clean sequential writer: no finding" test -z "$(rules "$D/clean")"
  check "small: 200 small writes" test "$(rule_num "$D/small" small-io small_ops)" = 200
  check "small: share 1" test "$(rule_num "$D/small" small-io small_share)" = 1
  check "small: fires at min-ops=200" has small-io "$D/small" --threshold min-ops=200
  check "small: silent at min-ops=201" lacks small-io "$D/small" --threshold min-ops=201
  check "tty: 150 one-byte writes to a pipe" test "$(rule_num "$D/tty" tiny-tty-write writes)" = 150
  check "tty: no access-unknown for a pipe" lacks access-unknown "$D/tty"
  check "seek: 40 lseek+write pairs" test "$(rule_num "$D/seek" seek-io pairs)" = 40
  check "seek: silent at seek-pairs=41" lacks seek-io "$D/seek" --threshold seek-pairs=41
  check "random: off-sequence reads" has random-access "$D/random"
  check "random: known offsets" test "$(rule_num "$D/random" random-access known)" = 120
  check "reopen: 20 opens in one case" test "$(rule_num "$D/reopen" repeated-open max_opens_per_case)" = 20
  check "reopen: silent at reopens=21" lacks repeated-open "$D/reopen" --threshold reopens=21
  n=$(rule_num "$D/enoent" failed-storm calls)
  check "enoent: at least 25 failed calls ($n)" test "${n%.*}" -ge 25
  check "enoent: one name tried in 25 directories" test "$(rule_num "$D/enoent" failed-storm max_dirs_per_name)" -ge 25
  "$IODFG_BIN" insights -q --format json "$D/enoent" >"$T/e.json"
  check "enoent: the paths tried are evidence" test "$(json "$T/e.json" 'sum("libmissing.so" in p for f in j["groups"][0]["findings"] for p in f["paths"])')" -ge 6
  check "shared: 4 cases wrote the file" test "$(rule_num "$D/shared" shared-file cases)" = 4
  check "shared: 80 writes" test "$(rule_num "$D/shared" shared-file writes)" = 80
  check "shared: overlapping writers" test "$(rule_num "$D/shared" shared-file max_concurrent_cases)" -ge 2
  check "reread: 192 KiB read again" test "$(rule_num "$D/reread" reread reread_bytes)" = 196608
  check "lock: 15 flock cycles" test "$(rule_num "$D/lock" lock-cycle cycles)" = 15
  check "lock: silent at lock-cycles=16" lacks lock-cycle "$D/lock" --threshold lock-cycles=16
  # the test program runs for milliseconds: its imbalance is judged from 5 ms of excess
  "$IODFG_BIN" insights -q --format json --threshold imbalance-min-s=0.005 "$D/imbalance" >"$T/i.json"
  check "imbalance: the worst rank named first" test "$(json "$T/i.json" '[f["cases"][0] for f in j["groups"][0]["findings"] if f["rule"]=="imbalance"][0]')" = imbalance_host1_3
  check "imbalance: ratio above 2" test "$(json "$T/i.json" '[f["numbers"]["ratio"] > 2 for f in j["groups"][0]["findings"] if f["rule"]=="imbalance"][0]')" = True
  # G/R: a finding of one group only
  "$IODFG_BIN" insights -q --format json --green cid=small --red cid=clean "$D/small" "$D/clean" >"$T/gr.json"
  check "G/R: small-io only in G" test "$(json "$T/gr.json" '[d["rule"] for d in j["differences"] if d["side"] == "G+" and d["rule"] != "bursty"]')" = "['small-io']"
  check "G/R: nothing of the clean run" test "$(json "$T/gr.json" '[d for d in j["differences"] if d["side"] == "R+" and d["rule"] != "bursty"]')" = "[]"
  # renaming activities changes no finding's rule, numbers or files
  printf 'map kind = file => {call}@{path:2}\nmap => {call}\n' >"$T/rename.rules"
  for p in small seek reopen shared; do
    "$IODFG_BIN" insights -q --format json "$D/$p" >"$T/a.json"
    "$IODFG_BIN" insights -q --format json --rules "$T/rename.rules" "$D/$p" >"$T/b.json"
    check "$p: stable when activities are renamed" test "$(json "$T/a.json" '[(f["rule"], f["numbers"], f["paths"]) for f in j["groups"][0]["findings"]]')" = "$(json "$T/b.json" '[(f["rule"], f["numbers"], f["paths"]) for f in j["groups"][0]["findings"]]')"
  done
}

# Precision and recall of the expected rule per pattern over every pattern directory.
insights_table() {
  D=$1
  tp=0 fp=0 fn=0
  printf '%-10s %-16s %s\n' pattern expected found
  for p in clean small tty seek random reopen enoent shared reread lock imbalance; do
    case $p in
      clean) want= ;; small) want=small-io ;; tty) want=tiny-tty-write ;; seek) want=seek-io ;;
      random) want=random-access ;; reopen) want=repeated-open ;; enoent) want=failed-storm ;;
      shared) want=shared-file ;; reread) want=reread ;; lock) want=lock-cycle ;;
      imbalance) want=imbalance ;;
    esac
    opt=; [ "$p" = imbalance ] && opt="--threshold imbalance-min-s=0.005"
    # shellcheck disable=SC2086
    got=$(rules "$D/$p" $opt)
    printf '%-10s %-16s %s\n' "$p" "${want:--}" "${got:--}"
    for r in $got; do if [ "$r" = "$want" ]; then tp=$((tp + 1)); else fp=$((fp + 1)); fi; done
    if [ -n "$want" ]; then case " $got " in *" $want "*) ;; *) fn=$((fn + 1)) ;; esac; fi
  done
  echo "expected findings found: $tp, other findings: $fp, expected but missing: $fn"
  check "every expected finding is found" test "$fn" = 0
}
