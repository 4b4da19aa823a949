#!/usr/bin/env bash
# grade-class.sh - grade a whole class: every submission in a folder, then one gradebook
#
#   scripts/grade-class.sh SUBMISSIONS [OUTDIR]          (make grade-class SUBMISSIONS=dir)
#
# SUBMISSIONS holds one entry per student: a folder or a tarball, named after
# the student. Without SLURM=1 they are graded one after another here. With
# SLURM=1 each becomes one task of a Slurm job array (one GPU each:
# SLURM_GRES, default gpu:1; TIME_LIMIT, default 00:30:00; SLURM_OPTS passed
# to sbatch), and a last job gathers the gradebook once all tasks ended;
# SLURM_WAIT=1 waits for it. OUTDIR (default build/class) gets one folder per
# student and gradebook.csv.
set -u
subs=${1:?usage: grade-class.sh SUBMISSIONS [OUTDIR]}
out=${2:-build/class}
mkdir -p "$out"
out=$(cd "$out" && pwd)
make --no-print-directory build/tools/wb-summary >/dev/null || exit 2
find "$subs" -mindepth 1 -maxdepth 1 \( -type d -o -name '*.tar' -o -name '*.tar.gz' -o -name '*.tgz' \) |
    sort >"$out/list.txt"
n=$(wc -l <"$out/list.txt")
[ "$n" -gt 0 ] || { echo "no submissions in $subs (folders or tarballs)"; exit 2; }
student() { local b; b=$(basename "$1"); b=${b%.tar.gz}; b=${b%.tgz}; echo "${b%.tar}"; }

if [ "${SLURM:-0}" != 1 ]; then
    while read -r s; do
        echo "== $(student "$s")"
        scripts/grade-submission.sh "$s" "$out/$(student "$s")" | tail -n 2
    done <"$out/list.txt"
    exec scripts/gradebook.sh "$out"
fi

# One array task per submission; each grades in its own copy of the workbook.
cat >"$out/task.sh" <<TASK
#!/usr/bin/env bash
cd "$(pwd)" || exit 2
s=\$(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" "$out/list.txt")
b=\$(basename "\$s"); b=\${b%.tar.gz}; b=\${b%.tgz}; b=\${b%.tar}
exec scripts/grade-submission.sh "\$s" "$out/\$b"
TASK
chmod +x "$out/task.sh"
gres=${SLURM_GRES-gpu:1}
jid=$(sbatch --parsable --job-name=wb-grade --array=0-$((n - 1)) --time="${TIME_LIMIT:-00:30:00}" \
    ${gres:+--gres=$gres} --output="$out/slurm-%a.log" ${SLURM_OPTS:-} "$out/task.sh") ||
    { echo "sbatch refused the job array"; exit 2; }
echo "submitted job array $jid ($n submissions)"
gid=$(sbatch --parsable --job-name=wb-gradebook --dependency=afterany:"$jid" --time=00:10:00 \
    --output="$out/gradebook.log" ${SLURM_OPTS:-} ${SLURM_WAIT:+--wait} \
    --wrap="cd '$(pwd)' && scripts/gradebook.sh '$out'") || { echo "sbatch refused the gradebook job"; exit 2; }
echo "gradebook job $gid: writes $out/gradebook.csv when the array ends"
