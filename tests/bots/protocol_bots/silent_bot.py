"""Never answers hello (it reads and ignores everything)."""

import sys


def main() -> None:
    for _line in sys.stdin:
        pass


if __name__ == "__main__":
    main()
