# Shared by scripts/ask and scripts/test: make .venv with the project installed.
# Usage: [EXTRAS=dev] source scripts/_env.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PYTHON:-python3}"
extras="${EXTRAS:-}"

if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "CivicSetu needs Python 3.11 or newer as '$PY' (set PYTHON=/path/to/python3.11)." >&2
  exit 1
fi
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  if ! "$PY" -m venv "$ROOT/.venv" 2>/dev/null; then
    # Debian's python3 ships venv separately.
    rm -rf "$ROOT/.venv"
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      echo "installing python3-venv with apt-get ..." >&2
      apt-get update -qq >&2 && apt-get install -y -qq python3-venv >&2
      "$PY" -m venv "$ROOT/.venv"
    else
      echo "python3 -m venv failed; install the venv module (Debian: sudo apt-get install python3-venv)" >&2
      exit 1
    fi
  fi
fi
# shellcheck disable=SC1091
source "$ROOT/.venv/bin/activate"
stamp="$ROOT/.venv/.civicsetu-installed${extras:+-$extras}"
if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
  echo "installing CivicSetu${extras:+ [$extras]} into .venv ..." >&2
  python -m pip install -q --disable-pip-version-check --upgrade pip >&2
  python -m pip install -q --disable-pip-version-check -e "$ROOT${extras:+[$extras]}" >&2
  touch "$stamp"
fi
