#!/bin/bash
# tools/tests/vscode.sh: the VS Code and container configurations tell the
# truth (host test; docs/any-laptop.md).
#  vscode.json_valid      .vscode/launch.json, .vscode/tasks.json and
#                         .devcontainer/devcontainer.json are strict JSON (no
#                         comments: VS Code would take them, other tools not)
#  vscode.tasks_make      the tasks build, qemu, qemu-gdb, check and grade
#                         exist and each runs `make [VAR=...] TARGET` of a
#                         target `make help` lists; every launch
#                         configuration's preLaunchTask and postDebugTask is
#                         a task, and its program is the kernel its
#                         preLaunchTask boots
#  vscode.ends_pattern    the qemu-gdb tasks' endsPattern (VS Code starts
#                         the debugger when it matches) matches a line
#                         `make qemu-gdb` prints
#  vscode.gdb_session     the first launch configuration, gdb driven as the
#                         C/C++ extension (cppdbg) drives it: its preLaunchTask's
#                         command in the background until the endsPattern;
#                         gdb started through sh in the program's directory
#                         with miDebuggerArgs and --interpreter=mi; each of
#                         customLaunchSetupCommands as an MI console command
#                         (source .gdbinit: symbols, the lx-* helpers, target
#                         remote), after -gdb-set mi-async on as the extension
#                         does; then a breakpoint on kmain, -exec-continue:
#                         it stops there; `vellum` lists the lx-* helpers;
#                         `kill` (the Stop button: the extension's
#                         terminate) ends make qemu-gdb with status 0
#  vscode.container       devcontainer.json builds tools/container/Dockerfile
#                         in a context holding every file the Dockerfile
#                         COPYs, the image runs tools/setup.sh, and its first
#                         packages are tools/debootstrap-check.sh's
# JSON is read with gdb's Python (gdb is a tool setup.sh installs; python3
# need not be there).
source "$(dirname "$0")/../testlib.sh"
T=vscode
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vellum-vscode.XXXXXX") || exit 1
MAKEPID= GDBPID=
cleanup() {
    [ -n "$GDBPID" ] && kill "$GDBPID" 2>/dev/null
    [ -n "$MAKEPID" ] && kill "$MAKEPID" 2>/dev/null
    [ -n "$MAKEPID" ] && pkill -P "$MAKEPID" 2>/dev/null
    wait 2>/dev/null
    restore_gdbinit
    rm -rf "$TMP"
}
# make qemu-gdb writes .gdbinit here: the tester's own is put back after
[ -f .gdbinit ] && cp -p .gdbinit "$TMP/gdbinit.saved"
restore_gdbinit() { if [ -f "$TMP/gdbinit.saved" ]; then cp -p "$TMP/gdbinit.saved" .gdbinit; else rm -f .gdbinit; fi; }
trap cleanup EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL VELLUM_SETUP_DONE

# ---- the three files, flattened to "KEY<TAB>VALUE" lines by gdb's Python
cat > "$TMP/flat.py" <<'PY'
import json, sys
out = []
def put(k, v): out.append("%s\t%s" % (k, str(v).replace("\n", " ")))
bad = []
docs = {}
for f in (".vscode/launch.json", ".vscode/tasks.json", ".devcontainer/devcontainer.json"):
    try:
        docs[f] = json.load(open(f))
    except Exception as e:
        bad.append("%s: %s" % (f, e))
put("invalid", "; ".join(bad))
t = docs.get(".vscode/tasks.json", {})
for task in t.get("tasks", []):
    lab = task.get("label", "")
    put("task", lab)
    put("command:" + lab, task.get("command", ""))
    bg = (task.get("problemMatcher") or {})
    if isinstance(bg, dict) and "background" in bg:
        put("ends:" + lab, bg["background"].get("endsPattern", ""))
for i, c in enumerate(docs.get(".vscode/launch.json", {}).get("configurations", [])):
    put("config", i)
    for k in ("preLaunchTask", "postDebugTask", "program", "miDebuggerArgs", "miDebuggerPath", "launchCompleteCommand"):
        put("%s:%d" % (k, i), c.get(k, ""))
    for cmd in c.get("customLaunchSetupCommands", []):
        put("setup:%d" % i, cmd.get("text", ""))
d = docs.get(".devcontainer/devcontainer.json", {})
put("dockerfile", d.get("build", {}).get("dockerfile", ""))
put("context", d.get("build", {}).get("context", ""))
print("\n".join(out))
PY
gdb -nx -batch -ex "python exec(open('$TMP/flat.py').read())" > "$TMP/flat" 2>&1
get() { awk -F'\t' -v k="$1" '$1 == k { sub(/^[^\t]*\t/, ""); print }' "$TMP/flat"; }
invalid=$(get invalid)
if grep -q '^task	' "$TMP/flat" && [ -z "$invalid" ]; then pass "$T.json_valid"
else fail "$T.json_valid (${invalid:-$(head -c 200 "$TMP/flat")})"; fi

# ---- tasks: make targets that exist; launch configurations: tasks that exist
make --no-print-directory help 2>/dev/null | awk '{ print $2 }' | sort -u > "$TMP/targets"
why=
for want in build qemu qemu-gdb check grade; do
    get task | grep -qx -- "$want" || why="$why no task $want;"
done
while IFS= read -r lab; do
    cmd=$(get "command:$lab")
    case $cmd in
        "echo \${input:"*) continue ;;                    # the stop tasks
        make) continue ;;
        make\ *) ;;
        *) why="$why task '$lab' runs '$cmd', not make;"; continue ;;
    esac
    for w in ${cmd#make }; do
        case $w in *=*) continue ;; esac
        grep -qx -- "$w" "$TMP/targets" || why="$why task '$lab': make $w is not in make help;"
    done
done < <(get task)
for i in $(get config); do
    for k in preLaunchTask postDebugTask; do
        v=$(get "$k:$i")
        get task | grep -qxF -- "$v" || why="$why configuration $i: $k '$v' is no task;"
    done
    pre=$(get "command:$(get "preLaunchTask:$i")")
    prog=$(get "program:$i")
    case $pre in
        *DEBUG=1*) [ "$prog" = '${workspaceFolder}/build/debug/vellum.elf' ] || why="$why configuration $i: program $prog for '$pre';" ;;
        *) [ "$prog" = '${workspaceFolder}/build/vellum.elf' ] || why="$why configuration $i: program $prog for '$pre';" ;;
    esac
done
if [ -z "$why" ] && [ "$(get config | wc -l)" -ge 1 ]; then pass "$T.tasks_make"
else fail "$T.tasks_make ($why)"; fi

# ---- the first configuration's session, as cppdbg runs it
PORT=$(bash tools/gdb/gdbport.sh "$TMP")
pre=$(get "command:$(get preLaunchTask:0)")
ends=$(get "ends:$(get preLaunchTask:0)")
# shellcheck disable=SC2086
timeout "$(backstop 120)" $pre GDBPORT=$PORT DISKS= BUILD="$BUILD" </dev/null > "$TMP/make.log" 2>&1 &
MAKEPID=$!
for _ in $(seq 600); do
    grep -qE -- "$ends" "$TMP/make.log" && break
    kill -0 $MAKEPID 2>/dev/null || break
    sleep 0.2
done
if [ -n "$ends" ] && grep -qE -- "$ends" "$TMP/make.log"; then pass "$T.ends_pattern"
else fail "$T.ends_pattern ('$ends' not in the output of $pre)"; show_tail "$TMP/make.log" 5; fi

top=$PWD
prog=$(get program:0); prog=${prog//\$\{workspaceFolder\}/$top}
prog=${prog/\/build\//\/$BUILD\/}
case $BUILD in /*) prog=$BUILD/vellum.elf ;; esac
mkfifo "$TMP/mi.in"
# the script cppdbg writes: cd "<program's dir>" ; "gdb" <miDebuggerArgs> --interpreter=mi ...
printf 'cd "%s" ; "%s" %s --interpreter=mi\n' "$(dirname "$prog")" "$(get miDebuggerPath:0)" \
    "$(get miDebuggerArgs:0)" > "$TMP/dbgcmd.sh"
timeout "$(backstop 90)" sh "$TMP/dbgcmd.sh" < "$TMP/mi.in" > "$TMP/mi.out" 2>&1 &
GDBPID=$!
exec 3> "$TMP/mi.in"
mi() { printf '%s\n' "$1" >&3; }
wait_mi() {                              # wait_mi REGEX SECONDS
    local i
    for (( i = 0; i < $2 * 10; i++ )); do
        grep -qE -- "$1" "$TMP/mi.out" && return 0
        kill -0 $GDBPID 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
ok=1 step=
mi '-gdb-set mi-async on'                # the extension's first command (MIEngine)
while IFS= read -r text; do
    text=${text//\$\{workspaceFolder\}/$top}
    case $text in -*) mi "$text" ;; *) mi "-interpreter-exec console \"${text//\"/\\\"}\"" ;; esac
done < <(get setup:0)
wait_mi '^\*stopped' 30 || { ok=0; step="no *stopped after customLaunchSetupCommands"; }
[ $ok = 1 ] && { mi '-break-insert kmain'; mi '-exec-continue'
    wait_mi '^\*stopped,reason="breakpoint-hit".*func="kmain"' 60 || { ok=0; step="no stop at kmain"; }; }
[ $ok = 1 ] && { mi '-interpreter-exec console "vellum"'
    wait_mi 'lx-ps' 20 || { ok=0; step="vellum listed no lx-ps"; }; }
[ $ok = 1 ] && { mi '-interpreter-exec console "kill"'
    wait_mi 'killed' 20 || { ok=0; step="kill"; }; }
mi '-gdb-exit'
exec 3>&-
wait $GDBPID 2>/dev/null; GDBPID=
wait $MAKEPID; mrc=$?; MAKEPID=
if [ $ok = 1 ] && [ $mrc = 0 ]; then pass "$T.gdb_session"
else fail "$T.gdb_session (${step:-make qemu-gdb exit $mrc})"; show_tail "$TMP/mi.out" 10; show_tail "$TMP/make.log" 5; fi

# ---- the container
why=
df=$(get dockerfile) ctx=$(get context)
dfp=.devcontainer/$df ctxp=.devcontainer/$ctx
[ "$(cd "$(dirname "$dfp")" 2>/dev/null && pwd)/$(basename "$dfp")" = "$top/tools/container/Dockerfile" ] ||
    why="$why dockerfile $df;"
[ -d "$ctxp" ] || why="$why context $ctx is no directory;"
while read -r src; do
    [ -e "$ctxp/$src" ] || why="$why COPY $src: not in the context $ctx;"
done < <(awk '$1 == "COPY" { for (i = 2; i < NF; i++) print $i }' tools/container/Dockerfile)
grep -q '^RUN sh /tmp/vellum-setup.sh' tools/container/Dockerfile || why="$why no RUN of setup.sh;"
first=$(grep -m1 -o 'apt-get install -y --no-install-recommends [a-z0-9 .+-]*' tools/container/Dockerfile |
        sed 's/.*recommends //' | tr ' ' '\n' | grep . | sort | paste -sd,)
boot=$(sed -n 's/^PACKAGES=//p' tools/debootstrap-check.sh | tr ',' '\n' | sort | paste -sd,)
[ -n "$first" ] && [ "$first" = "$boot" ] || why="$why the Dockerfile's first packages '$first', debootstrap-check's '$boot';"
if [ -z "$why" ]; then pass "$T.container"
else fail "$T.container ($why)"; fi
exit 0
