#!/usr/bin/env bash
# grade-class.sh - grade a whole class: every submission in a folder, then one gradebook
#
#   scripts/grade-class.sh SUBMISSIONS [OUTDIR]          (make grade-class SUBMISSIONS=dir)
#
# SUBMISSIONS holds one entry per student: a folder or a tarball (a plain
# file: .tar, .tar.gz, .tgz), named after the student; any name works, quotes,
# commas, newlines and all. Without SLURM=1 they are graded one after another
# here. With SLURM=1 each becomes one task of a Slurm job array (one GPU each:
# SLURM_GRES, default gpu:1; TIME_LIMIT, default 00:30:00; SLURM_OPTS passed
# to sbatch), and a last job gathers the gradebook once all tasks ended;
# SLURM_WAIT=1 waits for it. Each submission is graded with a fresh seed of its
# own unless SEED= is given. OUTDIR (default build/class) gets
# submissions.list, students/<folder>/ for each (see grade-submission.sh) and
# gradebook.csv; no submission's name can reach a file of OUTDIR itself.
set -u
export LC_ALL=C
subs=${1:?usage: grade-class.sh SUBMISSIONS [OUTDIR]}
out=${2:-build/class}
[ -d "$subs" ] || { echo "SUBMISSIONS=$subs: not a folder"; exit 2; }
subs=$(cd -- "$subs" && pwd) # absolute: no submission path starts with -
mkdir -p -- "$out/students"
out=$(cd -- "$out" && pwd)
top=$(pwd)
make --no-print-directory build/tools/wb-summary >/dev/null || exit 2
shown() { if [[ $1 == *[[:cntrl:]]* ]]; then printf '%q' "$1"; else printf '%s' "$1"; fi; }

# One "folder<TAB>submission" record per student, NUL-terminated (a name may hold newlines).
# Symbolic links, FIFOs and other files are no submissions.
list=$out/submissions.list
: >"$list"
declare -A used
n=0
while IFS= read -r -d '' s; do
    f=$(scripts/grade-submission.sh --folder "$s") || exit 2
    # Two submissions of one name (alice/ and alice.tar.gz): each keeps a folder of its own.
    k=1 base=$f
    while [ -n "${used[$f]+x}" ]; do k=$((k + 1)); f=$base~$k; done
    used[$f]=1
    printf '%s\t%s\0' "$f" "$s" >>"$list"
    n=$((n + 1))
done < <(find "$subs" -mindepth 1 -maxdepth 1 \( -type d -o -type f \( -name '*.tar' -o -name '*.tar.gz' \
    -o -name '*.tgz' \) \) -print0 | sort -z)
[ "$n" -gt 0 ] || { echo "no submissions in $subs (folders or tarballs)"; exit 2; }

if [ "${SLURM:-0}" != 1 ]; then
    while IFS= read -r -d '' rec; do
        f=${rec%%$'\t'*} s=${rec#*$'\t'}
        echo "== $(shown "${s##*/}")"
        scripts/grade-submission.sh "$s" "$out/students/$f" </dev/null |
            sed -n -e '/^cannot read /p' -e '/^files taken: /p' -e '/^Score: /p'
    done <"$list"
    exec scripts/gradebook.sh "$out"
fi

# One array task per submission; each grades in its own copy of the workbook. The paths are
# written quoted (printf %q) into the scripts: any name of folder stays one word.
{
    echo '#!/usr/bin/env bash'
    echo "cd $(printf %q "$top") || exit 2"
    echo 'i=0'
    echo 'while IFS= read -r -d "" rec; do'
    echo '    if [ "$i" = "$SLURM_ARRAY_TASK_ID" ]; then'
    echo "        exec scripts/grade-submission.sh \"\${rec#*\$'\\t'}\" $(printf %q "$out/students")/\"\${rec%%\$'\\t'*}\" </dev/null"
    echo '    fi'
    echo '    i=$((i + 1))'
    echo "done <$(printf %q "$list")"
    echo 'echo "no submission number $SLURM_ARRAY_TASK_ID"; exit 2'
} >"$out/task.sh"
printf '#!/usr/bin/env bash\ncd %q || exit 2\nexec scripts/gradebook.sh %q\n' "$top" "$out" >"$out/gather.sh"
chmod +x "$out/task.sh" "$out/gather.sh"
gres=${SLURM_GRES-gpu:1}
jid=$(sbatch --parsable --job-name=wb-grade --array=0-$((n - 1)) --time="${TIME_LIMIT:-00:30:00}" \
    ${gres:+--gres=$gres} --output="$out/slurm-%a.log" ${SLURM_OPTS:-} "$out/task.sh") ||
    { echo "sbatch refused the job array"; exit 2; }
echo "submitted job array $jid ($n submissions)"
gid=$(sbatch --parsable --job-name=wb-gradebook --dependency=afterany:"$jid" --time=00:10:00 \
    --output="$out/gradebook.log" ${SLURM_OPTS:-} ${SLURM_WAIT:+--wait} "$out/gather.sh") ||
    { echo "sbatch refused the gradebook job"; exit 2; }
echo "gradebook job $gid: writes $out/gradebook.csv when the array ends"
