#!/bin/sh
# Make sure the libraries crown builds against are present (DEVELOPERS.md:
# "missing -dev packages via apt-get").  Checks each with pkg-config; as
# root on Debian it installs what is missing, and nothing that is only
# recommended, otherwise it says what to install.
# Usage: setup-deps.sh [--fuzz] [TOOL:PACKAGE...]
#   --fuzz        also clang and its libFuzzer runtime (make fuzz only)
#   TOOL:PACKAGE  also PACKAGE when the command TOOL is missing (TOOL may
#                 be a path: /usr/sbin is not in every user's PATH)
#   python3/MODULE:PACKAGE
#                 also PACKAGE when Debian's python3 cannot import MODULE
set -u

fuzz=
if [ "${1:-}" = --fuzz ]; then
	fuzz=1
	shift
fi

# pkg-config module  Debian package
want='yaml-0.1 libyaml-dev
libpcre2-8 libpcre2-dev
libgit2 libgit2-dev
libsodium libsodium-dev
gmime-3.0 libgmime-3.0-dev
gpgme libgpgme-dev
libcmark-gfm libcmark-gfm-dev libcmark-gfm-extensions-dev
cmocka libcmocka-dev
zlib zlib1g-dev'

missing=
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
if [ -z "$missing" ]; then
	missing=$(printf '%s\n' "$want" | while read -r mod pkg; do
		pkg-config --exists "$mod" 2>/dev/null || printf '%s ' "$pkg"
	done)
else
	missing="pkg-config $(printf '%s\n' "$want" |
	    awk '{ for (i = 2; i <= NF; i++) printf "%s ", $i }')"
fi
for tool in "$@"; do
	case $tool in
	python3/*)
		mod=${tool#python3/}
		/usr/bin/python3 -c "import ${mod%%:*}" >/dev/null 2>&1 ||
		    missing="$missing ${tool#*:}" ;;
	*)
		command -v "${tool%%:*}" >/dev/null 2>&1 ||
		    missing="$missing ${tool#*:}" ;;
	esac
done
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
if [ -n "$fuzz" ]; then
	# libFuzzer is a library of clang's runtime, so try a link
	if ! command -v clang >/dev/null 2>&1; then
		missing="$missing clang libclang-rt-14-dev"
	else
		t=$(mktemp -d) || exit 1
		printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
		    '{ (void)d; (void)n; return 0; }' > "$t/f.c"
		clang -fsanitize=fuzzer,address,undefined -o "$t/f" "$t/f.c" \
		    >/dev/null 2>&1 || missing="$missing libclang-rt-14-dev"
		rm -rf "$t"
	fi
fi
command -v make >/dev/null 2>&1 || missing="$missing make"

missing=$(echo $missing)
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "crown: missing build dependencies: $missing" >&2
	echo "crown: install them with:" \
	    "sudo apt-get install --no-install-recommends $missing" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "crown: missing $missing and no apt-get here; install them by hand" >&2
	exit 1
fi
echo "crown: installing $missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Postfix (the tests' mail server, tests/mta) installed unconfigured: no
# main.cf, so no system-wide MTA starts; the test runs its own
case " $missing " in
*" postfix "*)
	echo 'postfix postfix/main_mailer_type select No configuration' |
	    debconf-set-selections || exit 1 ;;
esac
apt-get update -qq >&2 || exit 1
# what a package needs, not what it recommends: on a minimal Debian 12,
# 306 packages for make test rather than 452 (Chromium's recommends bring
# printer tools and a desktop's services); fontconfig's own dependency
# gives Chromium and rsvg-convert a font (fonts-dejavu-core)
apt-get install -y -qq --no-install-recommends $missing >&2 || exit 1
exit 0
