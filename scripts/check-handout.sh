#!/usr/bin/env bash
# check-handout.sh - the handout is whole: what the chapters link, show and tell the student to
# run is in it, and nothing in it shows the reference's student code
#
# Builds the handout into a temporary directory, extracts it, and checks:
#   contents  no solutions/, tests/broken/, stub-passes list, solution deck (slides/solutions/)
#             or figure held back (05-register-cliff.svg); every concept deck (slides/NN-*.md)
#             of a live lab is there
#   ledger    every file of ledger/ that git tracks is in it (the grader's header reads them)
#   links     every relative link and image of every Markdown file ([..](p), ![..](p),
#             [id]: p, <img src=p>) outside code resolves to a file inside the handout;
#             http(s)://, mailto: and #anchors are not followed
#   paths     every workbook file a chapter names in code (`grader/NN-topic/x.cu`) is in it
#   labs      `make -s list-labs` there names the live labs of this workbook
#   plots     `make plots` there draws every plot script from its sample (SKIP without gnuplot)
#   slides    `make slides` there renders the concept decks and nothing else (with this
#             checkout's Marp; SKIP without it, where it must say what to install)
#   decks     no concept deck, nor a figure one shows, holds code of a reference student
#             region: any run of 6 tokens that a region has and the handout's stubs,
#             headers and chapters do not (stricter than `regions`: one line is enough)
#   regions   no file of the handout holds two consecutive statements of a reference student
#             region that the stub does not have
# Prints PASS/FAIL/SKIP lines; exits 1 on any FAIL. Runs in the instructor's checkout (needs
# git and solutions/); `make check` runs it.
set -u
# The handout is built for this workbook's live labs, whatever an outer make was given.
unset LABS MAKEFLAGS MFLAGS
status=0
pass() { echo "PASS  handout.$1: $2"; }
fail() { echo "FAIL  handout.$1: $2"; status=1; }
skip() { echo "SKIP  handout.$1: $2"; }

if [ ! -d solutions ] || ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    skip all "not the instructor's checkout (no solutions/ or no git): nothing to hand out"
    exit 0
fi
t=$(mktemp -d /tmp/wb-handout.XXXXXX)
trap 'rm -rf "$t"' EXIT
if ! scripts/handout.sh "$t/handout.tar.gz" >"$t/build.log" 2>&1; then
    fail build "scripts/handout.sh failed: $(tail -3 "$t/build.log")"
    exit 1
fi
mkdir "$t/x" && tar -xzf "$t/handout.tar.gz" -C "$t/x"
root=$t/x/cuda-workbook

# ---- contents: what must never ship
held=$(cd "$root" && find . -path ./build -prune -o \( -path './solutions' -o -path './tests/broken' \
    -o -name stub-passes -o -path './slides/solutions' -o -path './slides/figures/05-register-cliff.svg' \) \
    -print | sed 's#^\./##' | head -5)
concept=$(cd "$root" && ls slides/[0-9][0-9]-*.md 2>/dev/null)
missing=$(for l in $(make -s --no-print-directory list-labs 2>/dev/null); do
    [ ! -e "slides/$l.md" ] || [ -e "$root/slides/$l.md" ] || echo "slides/$l.md"; done)
if [ -n "$held" ]; then
    fail contents "the handout holds instructor-only files: $(echo $held)"
elif [ -n "$missing" ]; then
    fail contents "concept decks left out of the handout: $(echo $missing)"
else
    pass contents "$(tar -tzf "$t/handout.tar.gz" | grep -vc '/$') files, $(echo "$concept" | wc -w) concept decks; no solutions/, tests/broken/, stub-passes or solution decks"
fi

# ---- ledger: the grader's header reads ledger/, so every file of it that git tracks ships
unshipped=$(git ls-files ledger | while read -r f; do [ -e "$root/$f" ] || echo "$f"; done)
if [ -n "$unshipped" ]; then
    fail ledger "files of ledger/ left out of the handout (the grader's header reads them): $(echo $unshipped)"
else
    pass ledger "$(git ls-files ledger | wc -l) tracked file(s) of ledger/ in the handout"
fi

# ---- links: FILE<TAB>LINE<TAB>TARGET for every link outside fenced code and code spans
links_awk='
FNR == 1 { fence = 0 }
/^[ \t]*(```|~~~)/ { fence = !fence; next }
fence { next }
{
    s = $0
    gsub(/`[^`]*`/, "", s)
    if (match(s, /^ ? ? ?\[[^]]+\]:[ \t]*[^ \t]+/)) {
        d = substr(s, RSTART, RLENGTH); sub(/^[^]]*\]:[ \t]*/, "", d); emit(d)
    }
    r = s
    while (match(r, /\]\([^)]*\)/)) {
        emit(substr(r, RSTART + 2, RLENGTH - 3)); r = substr(r, RSTART + RLENGTH)
    }
    r = s
    while (match(r, /<img[^>]*src=["][^"]*["]/) || match(r, /<img[^>]*src=['\''][^'\'']*['\'']/)) {
        d = substr(r, RSTART, RLENGTH); sub(/.*src=./, "", d); sub(/.$/, "", d)
        emit(d); r = substr(r, RSTART + RLENGTH)
    }
}
function emit(d) {
    sub(/^[ \t]*</, "", d); sub(/>[ \t]*$/, "", d); sub(/[ \t].*/, "", d)
    if (d != "") printf "%s\t%d\t%s\n", FILENAME, FNR, d
}'
mds=$(cd "$root" && find . -path ./build -prune -o -name '*.md' -print | sed 's#^\./##' | sort)
nlinks=0 next_=0 ngen=0 bad=0
while IFS=$'\t' read -r md line target; do
    [ -n "$md" ] || continue
    case $target in
    http://* | https://* | mailto:* | ftp://*) next_=$((next_ + 1)); continue ;;
    '#'*) continue ;;
    /*) fail links "$md:$line: $target is an absolute path, not a link inside the handout"; bad=1; continue ;;
    esac
    path=${target%%#*}
    path=${path%%\?*}
    nlinks=$((nlinks + 1))
    abs=$(realpath -m "$root/$(dirname "$md")/$path")
    rel=${abs#"$root"/}
    if [ "$abs" != "$root" ] && [ "$rel" = "$abs" ]; then
        fail links "$md:$line: $target leads outside the handout"; bad=1; continue
    fi
    # A link into build/ names something the student's own commands write. A plot
    # (build/plots/NAME.svg) must have the script `make plots` draws it with; any other
    # build/ path is an output of `make grade` and is counted as generated, not followed.
    case $rel in
    build/plots/*.svg)
        ngen=$((ngen + 1))
        gp=slides/plots/$(basename "$rel" .svg).gp
        [ -s "$root/$gp" ] || { fail links "$md:$line: $target: no $gp in the handout draws it"; bad=1; }
        continue ;;
    build/*) ngen=$((ngen + 1)); continue ;;
    esac
    [ -e "$abs" ] || { fail links "$md:$line: $target: $rel is not in the handout"; bad=1; }
done < <(cd "$root" && [ -n "$mds" ] && awk "$links_awk" $mds)
if [ $bad = 0 ]; then
    pass links "$nlinks relative links and images in $(echo "$mds" | wc -w) Markdown files resolve inside it ($ngen into build/ are generated; $next_ external not followed)"
fi

# ---- paths: a file of the workbook that a chapter names in code (`grader/04-barriers/...`)
# is in the handout too. build/ paths are outputs, and not named by a top folder here.
paths_awk='
FNR == 1 { fence = 0 }
/^[ \t]*(```|~~~)/ { fence = !fence; next }
fence { next }
{
    r = $0
    while (match(r, /`[^`]+`/)) {
        d = substr(r, RSTART + 1, RLENGTH - 2); r = substr(r, RSTART + RLENGTH)
        if (d ~ /^(labs|grader|common|scripts|slides|tests|solutions)\/[A-Za-z0-9_.\/-]*$/)
            printf "%s\t%d\t%s\n", FILENAME, FNR, d
    }
}'
chapters=$(cd "$root" && ls labs/[0-9][0-9]-*/README.md 2>/dev/null)
npaths=0 bad=0
while IFS=$'\t' read -r md line p; do
    [ -n "$md" ] || continue
    npaths=$((npaths + 1))
    [ -e "$root/$p" ] || { fail paths "$md:$line: names $p, which the handout lacks"; bad=1; }
done < <(cd "$root" && [ -n "$chapters" ] && awk "$paths_awk" $chapters)
[ $bad = 0 ] && pass paths "$npaths workbook files named in code by $(echo "$chapters" | wc -w) chapters are in it"

# ---- labs: the handout lists the same live labs
want=$(make -s --no-print-directory list-labs 2>&1)
got=$(cd "$root" && make -s --no-print-directory list-labs 2>&1)
if [ "$got" = "$want" ]; then
    pass labs "make -s list-labs: $got"
else
    fail labs "make -s list-labs says \"$got\", this workbook \"$want\""
fi

# ---- plots: `make plots` draws every plot script there (from its sample: no runs yet)
ngp=$(ls "$root"/slides/plots/[0-9][0-9]-*.gp 2>/dev/null | wc -l)
if [ "$ngp" = 0 ]; then
    fail plots "no slides/plots/*.gp in the handout, although chapters tell students to run make plots"
elif ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    if (cd "$root" && make -s --no-print-directory plots GNUPLOT="${GNUPLOT:-gnuplot}" 2>&1) | grep -q 'gnuplot not found'; then
        skip plots "gnuplot not found; make plots there says what to install (sudo apt-get install gnuplot-nox)"
    else
        fail plots "without gnuplot, make plots does not say what to install"
    fi
elif (cd "$root" && make -s --no-print-directory plots GNUPLOT="${GNUPLOT:-gnuplot}" >"$t/plots.log" 2>&1); then
    n=$(ls "$root"/build/plots/*.svg 2>/dev/null | wc -l)
    if [ "$n" = "$ngp" ]; then
        pass plots "make plots drew $n of $ngp plots from their samples"
    else
        fail plots "make plots drew $n of $ngp plots: $(grep -v PLOT "$t/plots.log" | head -3)"
    fi
else
    fail plots "make plots failed: $(tail -3 "$t/plots.log")"
fi

# ---- slides: `make slides` renders the concept decks there, and no solution deck. The
# handout has no node_modules (`npm ci` is the student's step): this checkout's Marp renders
# them (HTML only), and without one, `make slides` there must say what to install.
marp=$PWD/slides/node_modules/.bin/marp
if [ -z "$concept" ]; then
    fail slides "no concept deck (slides/NN-topic.md) in the handout"
elif [ ! -x "$marp" ] || ! command -v node >/dev/null 2>&1; then
    if (cd "$root" && make -s --no-print-directory slides 2>&1) | grep -q 'npm ci'; then
        skip slides "no Marp here (cd slides && npm ci); make slides there says what to install"
    else
        fail slides "without Marp, make slides there does not say what to install"
    fi
elif out=$(cd "$root" && make -s --no-print-directory slides MARP="$marp" CHROME_PATH= 2>&1); then
    got=$(cd "$root" && ls build/slides/*.html 2>/dev/null | sed 's#.*/##; s#\.html$##' | sort)
    want=$(sed 's#.*/##; s#\.md$##' <<<"$concept" | sort)
    if [ "$got" != "$want" ]; then
        fail slides "make slides rendered \"$(echo $got)\", not the concept decks \"$(echo $want)\""
    elif [ -e "$root/build/slides/solutions" ]; then
        fail slides "make slides there wrote build/slides/solutions/"
    else
        pass slides "make slides renders the $(echo "$want" | wc -w) concept decks there (HTML), no solution deck"
    fi
else
    fail slides "make slides there failed: $(grep -v '^  HTML' <<<"$out" | head -3)"
fi

# ---- decks: a concept deck, or a figure it shows, holds not even one line of the reference's
# student code. Files are read as streams of tokens (identifiers, numbers, each other
# character alone; SVG tags, entities and Markdown backticks dropped), so line breaks,
# spacing and comments make no difference. Every run of 6 consecutive tokens of a reference
# student region (comments dropped) with at least two words or numbers in it is looked for
# in the concept decks and their figures, except runs the handout's own stubs, headers and
# chapters hold (those a student has anyway). One hit fails, naming the deck's line and the
# reference's.
decks_awk='
function toks(s) {
    if (FILENAME ~ /\.svg$/)
        gsub(/<[^>]*>/, " ", s)
    gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
    gsub(/&#39;/, "'\''", s); gsub(/&amp;/, "\\&", s); gsub(/`/, " ", s)
    gsub(/[^A-Za-z0-9_ \t]/, " & ", s)
    return s
}
function strip_comments(s,    out, i) {
    out = ""
    while (s != "") {
        if (incomment) {
            i = index(s, "*/")
            if (!i) return out
            s = substr(s, i + 2); incomment = 0
        } else {
            i = index(s, "/*")
            if (index(s, "//") && (!i || index(s, "//") < i)) return out substr(s, 1, index(s, "//") - 1)
            if (!i) return out s
            out = out substr(s, 1, i - 1) " "; s = substr(s, i + 2); incomment = 1
        }
    }
    return out
}
# A window counts only with a name of 3 characters or more that is not a C keyword: a loop
# header such as "= 0 ; i < n" or "[ k ] = in [" is in every kernel, not the reference.
function distinct(last,    j) {
    for (j = last - W + 1; j <= last; j++)
        if (win[j] ~ /^[A-Za-z_][A-Za-z0-9_][A-Za-z0-9_]/ && !(win[j] in keyword))
            return 1
    return 0
}
function add(s, where,    n, a, k, j, key, words) {
    n = split(toks(s), a, /[ \t]+/)
    for (k = 1; k <= n; k++) {
        if (a[k] == "") continue
        win[++nt] = a[k]; at[nt] = where
        if (nt < W) continue
        key = win[nt - W + 1]; words = (win[nt - W + 1] ~ /^[A-Za-z0-9_]/)
        for (j = nt - W + 2; j <= nt; j++) { key = key " " win[j]; words += (win[j] ~ /^[A-Za-z0-9_]/) }
        if (words < 2 || !distinct(nt)) continue
        if (mode == "sol") { if (!(key in sol)) sol[key] = where }
        else if (mode == "own") delete sol[key]
        else if ((key in sol) && !((FILENAME, sol[key]) in seen)) {
            seen[FILENAME, sol[key]] = 1
            printf "%s:%d: \"%s\" (%s)\n", FILENAME, at[nt - W + 1], key, sol[key]
        }
    }
}
BEGIN {
    split("int unsigned long short char float double void const static struct sizeof size_t " \
          "bool true false NULL for while do if else return break continue", kw, " ")
    for (k in kw) keyword[kw[k]] = 1
}
FNR == 1 { nt = 0; inreg = 0; incomment = 0 }
mode == "sol" && /BEGIN STUDENT CODE/ { inreg = 1; nt = 0; next }
mode == "sol" && /END STUDENT CODE/ { inreg = 0; nt = 0; next }
mode == "sol" && !inreg { next }
mode == "sol" { add(strip_comments($0), FILENAME ":" FNR); next }
{ add($0, FNR) }'
figs=$(cd "$root" && [ -n "$concept" ] && grep -oh 'figures/[A-Za-z0-9_.-]*\.svg' $concept | sort -u |
    sed 's#^#slides/#' | while read -r f; do [ -e "$f" ] && echo "$f"; done)
refs=$(ls "$PWD"/solutions/[0-9][0-9]-*/*.cu)
own=$(cd "$root" && ls labs/[0-9][0-9]-*/*.cu labs/[0-9][0-9]-*/*.h labs/[0-9][0-9]-*/README.md 2>/dev/null)
if [ -z "$concept" ]; then
    fail decks "no concept deck in the handout to check"
else
    hits=$(cd "$root" && awk -v W=6 -v mode=sol "$decks_awk" $refs mode=own $own mode=scan $concept $figs)
    if [ -n "$hits" ]; then
        fail decks "reference student code in a concept deck or its figures ($(wc -l <<<"$hits") places; the first 20):"
        sed "s#$PWD/##; s/^/        /" <<<"$hits" | head -20
    else
        pass decks "$(echo "$concept" | wc -w) concept decks and the $(echo "$figs" | wc -w) figures they show hold no run of 6 tokens of the $(echo "$refs" | wc -w) references' student regions"
    fi
fi

# ---- regions: the reference's student code appears nowhere in the handout.
# Each file is cut into statements (at ; { } and line ends; comment marks, backticks and,
# in SVG, tags dropped; spaces squeezed; pieces under 10 characters skipped); a pair of
# consecutive statements of a reference student region that the stub does not also have
# must not occur in any file. Not scanned: grader/ and common/, the grader the handout
# needs to grade by itself, whose checks hold their own copy of some rules (lab 00's
# choice of the best GPU, lab 01's occupancy query); they are reviewed with the grader.
regions_awk='
function norm(s) {
    if (FILENAME ~ /\.(svg|html)$/)
        gsub(/<[^>]*>/, " ", s)
    gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
    gsub(/&#39;/, "'\''", s); gsub(/&amp;/, "\\&", s)
    gsub(/\/\*|\*\/|\/\/|`/, " ", s)
    sub(/^[ \t]*\*+[ \t]/, " ", s)
    return s
}
function push(p, where,    key) {
    gsub(/[ \t]+/, " ", p); sub(/^ /, "", p); sub(/ $/, "", p)
    if (length(p) < 10 || p !~ /[A-Za-z0-9]/)
        return
    key = prev SUBSEP p
    prev = p
    if (++nbuf < 2)
        return
    if (mode == "sol") { if (!(key in sol)) sol[key] = where }
    else if (mode == "stub") delete sol[key]
    else if ((key in sol) && !((FILENAME, sol[key]) in seen)) {
        seen[FILENAME, sol[key]] = 1
        printf "%s:%d: \"%s\" (%s)\n", FILENAME, FNR, p, sol[key]
    }
}
FNR == 1 { nbuf = 0; inreg = 0 }
mode == "sol" && /BEGIN STUDENT CODE/ { inreg = 1; nbuf = 0; next }
mode == "sol" && /END STUDENT CODE/ { inreg = 0; nbuf = 0; next }
mode == "sol" && !inreg { next }
{
    n = split(norm($0), parts, /[;{}]/)
    for (j = 1; j <= n; j++) push(parts[j], FILENAME ":" FNR)
}'
sols=$(ls "$PWD"/solutions/[0-9][0-9]-*/*.cu)
stubs=$(ls "$PWD"/labs/[0-9][0-9]-*/*.cu)
scan=$(cd "$root" && grep -rIl --exclude-dir=build --exclude-dir=grader --exclude-dir=common '' . | sed 's#^\./##' | sort)
hits=$(cd "$root" && awk -v mode=sol "$regions_awk" $sols mode=stub $stubs mode=scan $scan)
if [ -n "$hits" ]; then
    fail regions "reference student code in the handout ($(wc -l <<<"$hits") places; the first 20):"
    sed "s#$PWD/##; s/^/        /" <<<"$hits" | head -20
else
    pass regions "none of $(echo "$scan" | wc -w) text files holds code of the $(echo "$sols" | wc -w) references' student regions (grader/, common/ not scanned)"
fi
exit $status
