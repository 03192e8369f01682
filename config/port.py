"""Whether a server can listen on a port, told in one line before anything starts.

`make venue` (config/venue.py) and `make run` ask before they migrate or print links for a
server that would not start: `python -m config.port PORT --again "PORT={port} make run"`
exits 1 with that line when the port is taken.
"""

import argparse
import errno
import socket
import sys


def port_refusal(port: int, host: str, again: str, guess: str = "") -> str | None:
    """Why a server could not listen on `host`:`port`, in one line, or None when it can.

    Bound as gunicorn and runserver bind it (SO_REUSEADDR, so a port a stopped server left
    in TIME_WAIT counts as free), then closed at once. `again` is the command that serves
    on another port, `{port}` standing for it; `guess`, what may hold the port (said
    before the advice when it is in use).
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            other = again.format(port=port + 1 if port < 65535 else 8000)
            if exc.errno == errno.EADDRINUSE:
                return f"Port {port} is in use: {guess}choose another port: {other}"
            return f"Port {port} cannot be used ({exc.strerror}): choose another port: {other}"
    return None


def check_port(port: int, host: str, again: str, guess: str = "") -> None:
    """Exit (status 1) with `port_refusal`'s line when the port cannot be listened on."""
    refusal = port_refusal(port, host, again, guess)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        sys.exit(1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--again", required=True, help='e.g. "PORT={port} make run"')
    args = parser.parse_args(argv)
    check_port(args.port, args.host, args.again)


if __name__ == "__main__":
    main()
