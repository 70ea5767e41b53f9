#!/usr/bin/env bash
# Set up and run the whole test suite (the README's test command; CI runs this).
# Installs what the tests need: the package with its test extras (pytest, hypothesis,
# ruff, OpenSpiel as a rules oracle) and GNU Go from Debian's packages when absent.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v gnugo >/dev/null 2>&1 && [ ! -x /usr/games/gnugo ]; then
    if command -v apt-get >/dev/null 2>&1; then
        (apt-get update -qq && apt-get install -y -qq gnugo >/dev/null) \
            || echo "warning: could not install gnugo; GNU Go tests will be skipped" >&2
    fi
fi

python3 -m pip install -q --disable-pip-version-check -e '.[test]'
python3 -m ruff check engine protocols bots scripts tests
python3 -m pytest -q "$@"
