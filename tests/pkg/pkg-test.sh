#!/bin/bash
# tests/pkg/pkg-test.sh - the Debian packages, end to end, on this machine
# (as root; CI runs it from .ci/run on a fresh Debian 12):
#  1. build them from a fresh clone of this repository's HEAD with
#     dpkg-buildpackage -us -uc -b, and run lintian (errors and warnings
#     fail);
#  2. install them with dpkg -i (apt-get install -f for dependencies) and
#     check the files, the user bsflowd, the conffiles, the unit (enabled,
#     systemd-analyze verify) and the man pages' paths;
#  3. edit /etc/bsflowd.conf as an operator would (collector port, polling
#     interval), run the unit's ExecStartPre and ExecStart as its user with
#     its options (no systemd as PID 1 here) and a notify socket, and see
#     READY=1, WATCHDOG=1 and sFlow datagrams arrive at bsflow-collect;
#     run its ExecReload lines (RELOADING=1, READY=1) and stop it; the
#     sonic backend's drop-in: systemd-analyze verify with it, and (with
#     redis-server) the daemon as the user bsflowd reaches a Redis socket
#     of group redis only with the group the drop-in gives;
#  4. rebuild with a newer version whose shipped bsflowd.conf differs, and
#     upgrade: the operator's file is kept (dpkg's question answered "keep",
#     the new one left as .dpkg-dist);
#  5. remove (the configuration stays), purge (nothing of the packages
#     stays but the system user, which Debian leaves: files may still be
#     owned by it), then delete the user this test made.
# The machine is left as it was found.  Usage: pkg-test.sh [WORKDIR]
#
# SPDX-License-Identifier: BSD-2-Clause
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PKGS=(bsflowd bsflow-collect bsflowd-dev)
export DEBIAN_FRONTEND=noninteractive
JOBS=$(nproc 2>/dev/null || echo 2)

step() { printf '\n== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
ok() { echo "ok: $*"; }
die() {
	echo "FAIL: $*"
	exit 1
}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: pkg-test.sh installs packages: run it as root"
	exit 77
fi
for t in dpkg-buildpackage dh lintian git python3 setpriv systemd-analyze; do
	command -v "$t" >/dev/null 2>&1 ||
		die "$t not found (apt-get install dpkg-dev debhelper lintian git python3 util-linux systemd)"
done
for p in "${PKGS[@]}"; do
	if dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep 'installed\|config-files' >/dev/null; then
		die "$p is already installed here: purge it first (dpkg -P $p)"
	fi
done
[ ! -e /etc/bsflowd.conf ] || die "/etc/bsflowd.conf exists (a make install?): remove it first"
user_existed=0
getent passwd bsflowd >/dev/null && user_existed=1
redis_group_made=0

KEEP=${1:-}
W=${1:-$(mktemp -d /tmp/bsfpkg.XXXXXX)}
mkdir -p "$W"
chmod 0711 "$W" # the user bsflowd reaches the notify socket in it
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	dpkg -P "${PKGS[@]}" >/dev/null 2>&1 || true
	if [ $user_existed = 0 ] && getent passwd bsflowd >/dev/null; then
		deluser --quiet --system bsflowd >/dev/null 2>&1 || true
		if getent group bsflowd >/dev/null; then
			delgroup --quiet --system bsflowd >/dev/null 2>&1 || true
		fi
	fi
	if [ $redis_group_made = 1 ]; then
		groupdel redis >/dev/null 2>&1 || true
	fi
	[ -n "$KEEP" ] || rm -rf "$W"
}
trap 'cleanup' EXIT

build() { # dir: build the packages there, lintian them
	(cd "$1" && DEB_BUILD_OPTIONS="nocheck parallel=$JOBS" dpkg-buildpackage -us -uc -b \
		>"$1.build.log" 2>&1) || {
		tail -40 "$1.build.log"
		die "dpkg-buildpackage in $1 (log: $1.build.log)"
	}
	ok "built: $(cd "$1/.." && echo ./*.deb)"
	local changes
	changes=$(ls "$1"/../*.changes)
	if ! lintian --fail-on error,warning --allow-root "$changes" >"$1.lintian" 2>&1; then
		cat "$1.lintian"
		die "lintian reports errors or warnings on $changes"
	fi
	ok "lintian: no errors or warnings ($(wc -l <"$1.lintian") lines of output at the default level)"
}

step "build from a fresh clone of $(git -C "$SRC" rev-parse --short HEAD)"
git clone -q "$SRC" "$W/v1/src"
build "$W/v1/src"
version1=$(dpkg-parsechangelog -l "$W/v1/src/debian/changelog" -S Version)

step "install"
debs=("$W"/v1/bsflowd_*.deb "$W"/v1/bsflow-collect_*.deb "$W"/v1/bsflowd-dev_*.deb)
dpkg -i "${debs[@]}" || apt-get install -f -y -q
for p in "${PKGS[@]}"; do
	[ "$(dpkg-query -W -f '${Version}' "$p")" = "$version1" ] || die "$p $version1 not installed"
done
ok "installed ${PKGS[*]} $version1"

for f in /usr/sbin/bsflowd /usr/bin/bsflow-sim /usr/bin/bsflow-collect; do
	[ -x $f ] || die "$f missing"
done
for f in /etc/bsflowd.conf /etc/default/bsflowd /lib/systemd/system/bsflowd.service \
	/etc/bsflowd/scenarios/demo.conf /usr/share/bsflowd/systemd/linux.conf \
	/usr/share/bsflowd/systemd/sonic.conf \
	/usr/share/man/man8/bsflowd.8.gz /usr/share/man/man5/bsflowd.conf.5.gz \
	/usr/share/man/man1/bsflow-collect.1.gz /usr/share/doc/bsflowd/copyright \
	/usr/share/doc/bsflowd/PATENTS /usr/include/bsflowd/backend.h \
	/usr/share/man/man3/bsflowd-backend.3.gz; do
	[ -f $f ] || die "$f missing"
done
ok "files in place"
[ "$(dpkg -S /usr/bin/bsflow-collect | cut -d: -f1)" = bsflow-collect ] || die "bsflow-collect's package"
[ "$(pkg-config --modversion bsflowd-backend)" = "$(/usr/sbin/bsflowd -V | awk '{print $2}')" ] ||
	die "pkg-config bsflowd-backend: version"
# the packaged example plugin builds against the packaged header
ex=/usr/share/doc/bsflowd-dev/examples/backend_example.c
[ -f $ex ] || { [ -f $ex.gz ] && zcat $ex.gz >"$W/backend_example.c" && ex="$W/backend_example.c"; } ||
	die "no example plugin in bsflowd-dev"
# shellcheck disable=SC2046
cc -shared -fPIC $(pkg-config --cflags bsflowd-backend) -o "$W/example.so" "$ex" -lpthread ||
	die "the example plugin does not build against the installed <bsflowd/backend.h>"
ok "bsflowd-dev: pkg-config bsflowd-backend, the example plugin builds against <bsflowd/backend.h>"

pw=$(getent passwd bsflowd) || die "no user bsflowd"
uid=$(echo "$pw" | cut -d: -f3)
[ "$uid" -lt 1000 ] || die "bsflowd is not a system user (uid $uid)"
case $(echo "$pw" | cut -d: -f7) in */nologin | */false) ;; *) die "bsflowd has a login shell: $pw" ;; esac
ok "system user: $pw"

conffiles=$(dpkg-query -W -f '${Conffiles}' bsflowd)
for f in /etc/bsflowd.conf /etc/default/bsflowd; do
	echo "$conffiles" | grep -q " $f " || die "$f is not a conffile"
done
ok "conffiles: $(echo "$conffiles" | awk '{print $1}' | tr '\n' ' ')"

unit=/lib/systemd/system/bsflowd.service
out=$(systemd-analyze verify "$unit" 2>&1) || die "systemd-analyze verify: $out"
[ -z "$out" ] || die "systemd-analyze verify: $out"
[ -L /etc/systemd/system/multi-user.target.wants/bsflowd.service ] || die "the unit is not enabled"
systemd-analyze security --offline=yes "$unit" | tail -1
ok "unit verified and enabled"

# (grep without -q reads all its input: with -q it may stop early, zcat
# then dies of SIGPIPE and pipefail fails the pipeline)
zcat /usr/share/man/man8/bsflowd.8.gz | grep '^\.Pa /etc/bsflowd.conf' >/dev/null ||
	die "bsflowd(8) does not name /etc/bsflowd.conf"
! zcat /usr/share/man/man*/bsflow*.gz | grep -n '@[a-z][a-z]*@' || die "man pages with @...@ left"
out=$(/usr/sbin/bsflowd -t 2>&1) || die "bsflowd -t: $out"
[ "$(echo "$out" | tail -n 1)" = "/etc/bsflowd.conf: configuration OK" ] || die "bsflowd -t: $out"
ok "bsflowd -t reads /etc/bsflowd.conf; man pages name it"

step "run the installed service as its unit would, as the user bsflowd"
port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# the operator's edits
sed -i -e "s/^\(\s*port = \)6343$/\1$port/" -e 's/^polling_interval = 20$/polling_interval = 2/' /etc/bsflowd.conf
grep -q "port = $port" /etc/bsflowd.conf || die "could not edit the collector port"
echo "# edited by the operator" >>/etc/bsflowd.conf
cp /etc/bsflowd.conf "$W/edited.conf"

/usr/bin/bsflow-collect -4 -b 127.0.0.1 -p "$port" -t 30 >"$W/collect.out" 2>&1 &
pids+=("$!")
mkdir -p "$W/notify" && chmod 0777 "$W/notify"
python3 - "$W/notify/sock" >"$W/notify.out" <<'EOF' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); s.settimeout(30)
try:
    while True:
        print(s.recv(4096).decode().replace("\n", " "), flush=True)
except socket.timeout:
    pass
EOF
pids+=("$!")
for _ in $(seq 1 100); do
	[ -S "$W/notify/sock" ] && break
	sleep 0.1
done
[ -S "$W/notify/sock" ] || die "the notify socket listener did not start"

# the unit's command lines with its environment (/etc/default/bsflowd)
BSFLOWD_OPTS=
# shellcheck disable=SC1091
. /etc/default/bsflowd
execline() { sed -n "s/^$1=//p" "$unit" | head -1 | sed "s|\$BSFLOWD_OPTS|$BSFLOWD_OPTS|"; }
# User=bsflowd, CapabilityBoundingSet= (empty), NoNewPrivileges=yes
RUNAS="setpriv --reuid=bsflowd --regid=bsflowd --init-groups --no-new-privs --inh-caps=-all --bounding-set=-all --"
pre=$(execline ExecStartPre)
start=$(execline ExecStart)
echo "ExecStartPre: $pre"
echo "ExecStart: $start"
# shellcheck disable=SC2086
$RUNAS $pre || die "ExecStartPre failed: $pre"
# setpriv execs bsflowd: $! is the daemon
# shellcheck disable=SC2086
NOTIFY_SOCKET="$W/notify/sock" WATCHDOG_USEC=2000000 $RUNAS $start &
dpid=$!
pids+=("$dpid")
for _ in $(seq 1 100); do
	grep -q '^startDatagram' "$W/collect.out" && grep -q 'WATCHDOG=1' "$W/notify.out" && break
	sleep 0.2
done
sleep 1
kill -0 $dpid 2>/dev/null || die "bsflowd exited"
[ "$(ps -o user= -p $dpid)" = bsflowd ] || die "bsflowd does not run as bsflowd"
grep -q '^READY=1' "$W/notify.out" || die "no READY=1: $(cat "$W/notify.out")"
grep -q '^WATCHDOG=1' "$W/notify.out" || die "no WATCHDOG=1: $(cat "$W/notify.out")"
n=$(grep -c '^startDatagram' "$W/collect.out" || true)
[ "$n" -gt 0 ] || die "no datagram reached bsflow-collect: $(head "$W/collect.out")"
ok "running as bsflowd: READY=1 and WATCHDOG=1 notified, $n datagrams decoded by bsflow-collect"

# systemctl reload: the unit's ExecReload lines, in order
sed -n 's/^ExecReload=//p' "$unit" | sed -e "s|\$BSFLOWD_OPTS|$BSFLOWD_OPTS|" -e "s|\$MAINPID|$dpid|" >"$W/reload"
[ "$(wc -l <"$W/reload")" = 2 ] || die "ExecReload: $(cat "$W/reload")"
read -ra check <<<"$(sed -n 1p "$W/reload")"
read -ra signal <<<"$(sed -n 2p "$W/reload")"
$RUNAS "${check[@]}" || die "ExecReload's check failed: ${check[*]}"
"${signal[@]}" || die "ExecReload's signal failed: ${signal[*]}"
for _ in $(seq 1 50); do
	[ "$(grep -c '^READY=1' "$W/notify.out")" -ge 2 ] && break
	sleep 0.1
done
grep -q '^RELOADING=1' "$W/notify.out" || die "no RELOADING=1 after the reload"
[ "$(grep -c '^READY=1' "$W/notify.out")" -ge 2 ] || die "no READY=1 after the reload"
kill -0 $dpid 2>/dev/null || die "bsflowd exited on reload"
ok "reloaded as systemctl reload would: RELOADING=1, then READY=1"
kill -TERM $dpid
wait $dpid || die "bsflowd exited $? on SIGTERM"
ok "stopped cleanly (SIGTERM)"

step "the sonic backend's drop-in: the Redis socket through the group redis"
dropin=/usr/share/bsflowd/systemd/sonic.conf
mkdir -p "$W/sonic-unit"
cat "$unit" "$dropin" >"$W/sonic-unit/bsflowd.service"
out=$(cd "$W/sonic-unit" && systemd-analyze verify ./bsflowd.service 2>&1) ||
	die "systemd-analyze verify with sonic.conf: $out"
[ -z "$out" ] || die "systemd-analyze verify with sonic.conf: $out"
(cd "$W/sonic-unit" && systemd-analyze security --offline=yes ./bsflowd.service | tail -1)
ok "the unit with sonic.conf verified"
if command -v redis-server >/dev/null 2>&1; then
	if ! getent group redis >/dev/null; then
		groupadd --system redis
		redis_group_made=1
	fi
	mkdir -p "$W/redis" && chmod 0711 "$W/redis"
	redis-server --port 0 --unixsocket "$W/redis/redis.sock" --unixsocketperm 770 --save '' \
		--appendonly no --dir "$W/redis" >"$W/redis/log" 2>&1 &
	pids+=("$!")
	for _ in $(seq 1 100); do
		[ -S "$W/redis/redis.sock" ] && break
		sleep 0.1
	done
	chgrp redis "$W/redis/redis.sock" || die "redis-server's socket did not come up"
	printf 'backend = sonic\nsonic {\n\tredis = "%s"\n\tdatabase_config = "/nonexistent"\n\tconfig_db_json = "/nonexistent"\n}\n' \
		"$W/redis/redis.sock" >"$W/sonic.conf"
	chmod 0644 "$W/sonic.conf"
	# the unit's user without the drop-in's group: refused by the socket
	# shellcheck disable=SC2086
	out=$($RUNAS /usr/sbin/bsflowd -d -f "$W/sonic.conf" --run-for 2 2>&1) || true
	grep -q 'Permission denied' <<<"$out" ||
		die "bsflowd reached a socket of group redis without the group: $out"
	# with SupplementaryGroups=redis, as the drop-in runs it
	RUNAS_REDIS="setpriv --reuid=bsflowd --regid=bsflowd --groups=redis --no-new-privs --inh-caps=-all --bounding-set=-all --"
	# shellcheck disable=SC2086
	out=$($RUNAS_REDIS /usr/sbin/bsflowd -d -f "$W/sonic.conf" --run-for 2 2>&1) || true
	grep -qF "sonic: redis $W/redis/redis.sock: connected" <<<"$out" ||
		die "bsflowd with the group redis did not reach the socket: $out"
	ok "as bsflowd: the Redis socket of group redis refused without the group, reached with it"
else
	echo "note: redis-server not installed: the drop-in's group not tried"
fi

step "upgrade to a rebuilt package with a newer version and a changed bsflowd.conf"
git clone -q "$SRC" "$W/v2/src"
version2="$version1+pkgtest1"
(cd "$W/v2/src" && {
	printf 'bsflowd (%s) unstable; urgency=medium\n\n  * Rebuilt by tests/pkg/pkg-test.sh for its upgrade test.\n\n -- %s  %s\n\n' \
		"$version2" "$(dpkg-parsechangelog -S Maintainer)" "$(date -R)"
	cat debian/changelog
} >debian/changelog.new && mv debian/changelog.new debian/changelog &&
	echo "# (a comment added upstream in $version2)" >>etc/bsflowd.conf)
build "$W/v2/src"
debs=("$W"/v2/bsflowd_*.deb "$W"/v2/bsflow-collect_*.deb "$W"/v2/bsflowd-dev_*.deb)
dpkg -i --force-confold "${debs[@]}" || apt-get install -f -y -q
for p in "${PKGS[@]}"; do
	[ "$(dpkg-query -W -f '${Version}' "$p")" = "$version2" ] || die "$p not upgraded to $version2"
done
cmp -s /etc/bsflowd.conf "$W/edited.conf" || die "the operator's /etc/bsflowd.conf was not kept"
grep -q "added upstream in $version2" /etc/bsflowd.conf.dpkg-dist || die "no /etc/bsflowd.conf.dpkg-dist"
out=$(/usr/sbin/bsflowd -t 2>&1) || die "bsflowd -t after the upgrade: $out"
ok "upgraded to $version2; the edited /etc/bsflowd.conf kept, the new one in .dpkg-dist"

step "remove, then purge"
files=$(dpkg -L "${PKGS[@]}" | sort -u)
dpkg -r "${PKGS[@]}"
[ ! -e /usr/sbin/bsflowd ] || die "/usr/sbin/bsflowd left after remove"
cmp -s /etc/bsflowd.conf "$W/edited.conf" || die "/etc/bsflowd.conf not kept on remove"
ok "removed; /etc/bsflowd.conf kept"
dpkg -P "${PKGS[@]}"
left=""
for f in $files /etc/bsflowd.conf.dpkg-dist /etc/bsflowd /etc/systemd/system/multi-user.target.wants/bsflowd.service; do
	[ "$f" != /. ] || continue
	[ -e "$f" ] || [ -L "$f" ] || continue
	# a directory (or a merged-/usr link to one) other packages own too
	[ -d "$f" ] && dpkg -S "$f" >/dev/null 2>&1 && continue
	left="$left $f"
done
[ -z "$left" ] || die "left after purge:$left"
getent passwd bsflowd >/dev/null && echo "note: the system user bsflowd stays after purge (Debian custom); this test deletes it"
ok "purged: nothing of the packages is left"
