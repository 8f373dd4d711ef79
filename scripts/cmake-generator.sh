# Sourced by scripts/test.sh and scripts/configure-sanitize.sh: sets `generator` to the cmake
# arguments that choose Ninja for the build folder $1 when ninja is installed (Debian's
# ninja-build, scripts/install-deps.sh).
# Why Ninja: Make builds one target after another, so each layer's library (core, models, engine,
# reports, cli, then the tests) waits for the one below it to be archived, and the last batch of
# each layer compiles alone on one of the two cores. Ninja compiles the objects of every layer as
# soon as they can start and waits only to link (docs/testing.md, session 31).
# A folder configured for another generator is reconfigured from scratch (cmake refuses to switch
# generators in place); its object files are left where they are and not reused.
generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
  if [ -f "$1/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$1/CMakeCache.txt"; then
    echo "note: $1 was configured for another generator: configuring it again for Ninja" >&2
    rm -rf "$1/CMakeCache.txt" "$1/CMakeFiles"
  fi
fi
