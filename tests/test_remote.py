"""Items fetched from an address (the team's spreadsheet), against HTTP and HTTPS servers this test starts on this
machine — never the internet: a folder cannot make cardgen fetch, `--fetch` and `cardgen trust GAME --fetch` can,
each address is fetched once a run and kept with its time, `--offline` reads the kept copy, errors name the address
and the row, and every fetch is bounded (bytes, time, redirects) and held to https (http on this machine alone).
"""

from __future__ import annotations

import datetime
import http.server
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pdfcheck import words

from conftest import FIXTURES, GameCopy, copy_game, run_cli

HERE = FIXTURES / "languages"
TEMPLATES = HERE / "templates"
EVENTS = (HERE / "card_data" / "outposts" / "events.csv").read_bytes()


@dataclass
class Route:
    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # between each byte of the body: a server that drips


class Server:
    """An HTTP(S) server on this machine answering from `routes` by path, counting the requests it is sent."""

    def __init__(self, host: str = "127.0.0.1", context: ssl.SSLContext | None = None):
        self.routes: dict[str, Route] = {}
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.requests.append(self.path)
                route = server.routes.get(self.path, Route(b"not here", 404))
                self.send_response(route.status)
                for name, value in {"Content-Length": str(len(route.body)), **route.headers}.items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    for at in range(len(route.body)) if route.delay else ():
                        time.sleep(route.delay)
                        self.wfile.write(route.body[at : at + 1])
                        self.wfile.flush()
                    if not route.delay:
                        self.wfile.write(route.body)
                except ConnectionError:  # the client gave up on a dripping body, as the bounds make it
                    pass

            def log_message(self, *_: object) -> None:
                pass

        class Quiet(http.server.ThreadingHTTPServer):
            """Says nothing of a client that hung up: its traceback would land, from the handler's thread, in
            the stderr of whichever test runs then (a later test's one-line error read 20 lines)."""

            def handle_error(self, request: object, client_address: object) -> None:
                pass

        self.httpd = Quiet((host, 0), Handler)
        self.httpd.daemon_threads = True
        if context is not None:
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        # `shutdown` waits for the loop's next look at its flag: every 0.5 s by default, half a second a test
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self.thread.start()

    def url(self, path: str, host: str = "127.0.0.1", scheme: str = "http") -> str:
        return f"{scheme}://{host}:{self.port}{path}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.close()


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test keeps its fetched copies in a cache folder of its own, never the user's."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def sheet_game(tmp_path: Path, url: str, extra: str = "") -> GameCopy:
    """The bilingual fixture game with its events taken from `url`."""
    game = copy_game("outposts", tmp_path, HERE / "card_data")
    (game.folder / "events.csv").unlink()
    game.edit("events.yaml", "cards: {file: events.csv}", f'cards: {{url: "{url}"{extra}}}')
    return game


def cardgen(game: GameCopy, *args: str | Path):
    """`cardgen` on the game's folders; `args` may begin with global options (`--fetch`, `--limit N=V`)."""
    return run_cli("--data-dir", game.data, "--templates-dir", TEMPLATES, *args)


def test_a_folder_never_fetches_by_itself(server, tmp_path):
    server.routes["/events.csv"] = Route(EVENTS)
    game = sheet_game(tmp_path, server.url("/events.csv"))
    run = cardgen(game, "validate", "outposts")
    assert run.code == 2 and server.requests == []
    (line,) = run.err.splitlines()
    assert line == (
        f"cardgen: error: {game.folder / 'events.yaml'}:5: cards.url: {server.url('/events.csv')}: no kept copy to "
        "read: a game folder cannot make cardgen fetch by itself: fetch it for this run with 'cardgen --fetch …', or "
        "allow this folder's addresses for good with 'cardgen trust outposts --fetch'"
    )


def test_fetched_once_a_run_kept_with_its_time_and_read_offline(server, tmp_path, own_cache):
    server.routes["/events.csv"] = Route(EVENTS, headers={"Content-Type": "text/csv"})
    game = sheet_game(tmp_path, server.url("/events.csv"))
    out = tmp_path / "out"
    before = datetime.datetime.now(datetime.UTC).replace(second=0, microsecond=0)
    run = cardgen(game, "--fetch", "build", "outposts", "--out", out)
    assert run.code == 0, run.err
    assert server.requests == ["/events.csv"]  # the cache check and the loading share one fetch
    (kept,) = (own_cache / "cardgen" / "sheets").glob("*.csv")
    assert kept.read_bytes() == EVENTS
    note = next(line for line in run.err.splitlines() if "as fetched" in line)
    stamp = datetime.datetime.strptime(note.rsplit("as fetched ", 1)[1], "%Y-%m-%d %H:%M UTC").replace(
        tzinfo=datetime.UTC
    )
    assert note.startswith(f"note: outposts: events: items from {server.url('/events.csv')} as fetched ")
    assert before <= stamp <= datetime.datetime.now(datetime.UTC)
    assert "Solar" in [w["text"] for w in words(out / "outposts" / "outposts.pdf", 2)]
    server.routes["/events.csv"] = Route(EVENTS.replace(b"Solar Storm", b"Ion Storm"))
    offline = cardgen(game, "--offline", "build", "outposts", "--out", tmp_path / "offline", "-q")
    assert offline.code == 0, offline.err
    assert server.requests == ["/events.csv"]  # --offline: nothing asked
    assert "Solar" in [w["text"] for w in words(tmp_path / "offline" / "outposts" / "outposts.pdf", 2)]
    server.close()  # and with no server at all, the kept copy still builds
    again = cardgen(game, "build", "outposts", "--out", tmp_path / "again", "-q")
    assert again.code == 0, again.err


def test_allowed_for_good_a_game_fetches_each_run_and_a_changed_sheet_is_printed_again(server, tmp_path):
    server.routes["/events.csv"] = Route(EVENTS)
    game = sheet_game(tmp_path, server.url("/events.csv"))
    allowed = cardgen(game, "trust", "outposts", "--fetch")
    assert allowed.code == 0, allowed.err
    assert allowed.out.splitlines()[0] == f"outposts may fetch {server.url('/events.csv')}"
    out = tmp_path / "out"
    assert cardgen(game, "build", "outposts", "--out", out, "-q").code == 0
    server.routes["/events.csv"] = Route(EVENTS.replace(b"Solar Storm", b"Ion Storm"))
    assert cardgen(game, "build", "outposts", "--out", out, "-q").code == 0  # the same folder: fetched again
    assert len(server.requests) == 2
    assert "Ion" in [w["text"] for w in words(out / "outposts" / "outposts.pdf", 2)]
    assert cardgen(game, "untrust", "outposts", "--fetch").code == 0
    assert cardgen(game, "build", "outposts", "--out", out, "-q").code == 0
    assert len(server.requests) == 2  # no longer allowed: the kept copy is read


def test_a_mistake_in_the_sheet_is_named_by_its_address_and_row(server, tmp_path):
    server.routes["/events.csv"] = Route(EVENTS.replace(b"trade-fleet,2,", b"trade-fleet,two,"))
    game = sheet_game(tmp_path, server.url("/events.csv"))
    run = cardgen(game, "--fetch", "validate", "outposts")
    assert run.code == 2
    assert f"cardgen: error: {server.url('/events.csv')}:3: column 'count': 'two' is not a whole number" in run.err


def test_a_published_google_sheet_is_read_as_csv_through_its_redirect(server, tmp_path):
    """Google's published CSV answers `pub?output=csv` with a redirect to the file; no suffix says CSV."""
    server.routes["/spreadsheets/d/e/KEY/pub?output=csv"] = Route(status=307, headers={"Location": "/export/1"})
    server.routes["/export/1"] = Route(EVENTS, headers={"Content-Type": "text/csv; charset=utf-8"})
    game = sheet_game(tmp_path, server.url("/spreadsheets/d/e/KEY/pub?output=csv"))
    run = cardgen(game, "--fetch", "validate", "outposts")
    assert run.code == 0, run.err
    assert server.requests == ["/spreadsheets/d/e/KEY/pub?output=csv", "/export/1"]


def test_an_xlsx_from_an_address(server, tmp_path):
    from cardgen.data.tables import write_table

    rows = [line.split(",") for line in EVENTS.decode().splitlines()]
    server.routes["/events"] = Route(write_table(Path("events.xlsx"), rows, "Events"))
    game = sheet_game(tmp_path, server.url("/events"), ", sheet: Events")
    run = cardgen(game, "--fetch", "list", "outposts")
    assert run.code == 0, run.err
    assert "events" in run.out and "5" in run.out


BOUNDS = [
    (Route(EVENTS * 10), ("--limit", "table_bytes=1000"), "more than 1,000 bytes"),
    (Route(EVENTS[:40], delay=0.1), ("--limit", "fetch_seconds=1"), "no answer within 1 s"),
    (Route(status=302, headers={"Location": "/loop"}), (), "more than 5 redirects"),
    (
        Route(status=302, headers={"Location": "file:///etc/passwd"}),
        (),
        "redirected to file:///etc/passwd: 'file:' addresses are not fetched",
    ),
    (
        Route(status=302, headers={"Location": "http://example.org/x.csv"}),
        (),
        "redirected to http://example.org/x.csv: only https:// addresses are fetched",
    ),
    (Route(b"<!DOCTYPE html><html>sign in</html>"), (), "the address gave a web page, not a table"),
    (Route(b"gone", status=404), (), "the server answered 404 Not Found"),
]


@pytest.mark.parametrize(("route", "limit", "expected"), BOUNDS)
def test_a_fetch_is_bounded_and_held_to_its_rules(server, tmp_path, route, limit, expected):
    server.routes["/loop"] = route
    game = sheet_game(tmp_path, server.url("/loop"))
    start = time.monotonic()
    run = cardgen(game, "--fetch", *limit, "validate", "outposts")
    assert time.monotonic() - start < 20  # the bounds hold: far below a hang, whatever the load on the machine
    assert run.code == 2, run.out
    assert len(run.err.splitlines()) == 1, run.err
    assert f"cards.url: {server.url('/loop')}: {expected}" in run.err, run.err


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("file:///etc/passwd", "'file:' addresses are not fetched: give an https:// address"),
        ("http://example.org/events.csv", "only https:// addresses are fetched (http:// only from this machine)"),
        ("https://user:secret@example.org/events.csv", "an address with a user name or password in it"),
        ("ftp://example.org/events.csv", "'ftp:' addresses are not fetched"),
        ("https:///events.csv", "the address names no host"),
    ],
)
def test_addresses_that_are_never_fetched(tmp_path, url, expected):
    game = sheet_game(tmp_path, url)
    run = cardgen(game, "--fetch", "validate", "outposts")
    assert run.code == 2
    assert f"cards.url: {url}: {expected}" in run.err
    assert cardgen(game, "trust", "outposts", "--fetch").code == 2  # nor allowed for good


def tls(tmp_path: Path, names: list[str]) -> tuple[ssl.SSLContext, Path]:
    """A server context with a certificate of its own for `names` (hosts or IP addresses), and that certificate."""
    crypto = pytest.importorskip("cryptography", reason="cryptography (a pdfminer dependency) makes the certificate")
    del crypto
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])])
    alternatives: list[x509.GeneralName] = []
    for name in names:
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternatives.append(x509.DNSName(name))
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    cert = tmp_path / "server.pem"
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    private = tmp_path / "server.key"
    private.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, private)
    return context, cert


def test_https_from_this_machine_with_its_certificate_checked(tmp_path, monkeypatch):
    context, cert = tls(tmp_path, ["localhost"])
    secure = Server(context=context)
    try:
        secure.routes["/events.csv"] = Route(EVENTS)
        game = sheet_game(tmp_path, secure.url("/events.csv", host="localhost", scheme="https"))
        untrusted = cardgen(game, "--fetch", "validate", "outposts")
        assert untrusted.code == 2 and "the secure connection failed (CERTIFICATE_VERIFY_FAILED)" in untrusted.err
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the certificate trusted, as a company's own CA would be
        trusted = cardgen(game, "--fetch", "validate", "outposts")
        assert trusted.code == 0, trusted.err
    finally:
        secure.close()


def test_an_https_address_that_leads_to_a_private_network_is_refused_before_it_is_spoken_to(tmp_path):
    """127.0.0.2 is not `localhost` by name: an address that reaches this machine (or any private network) under
    another name is refused on the connection, before TLS and before a request is sent."""
    try:
        other = Server(host="127.0.0.2")
    except OSError:
        pytest.skip("this system does not route 127.0.0.2 to itself")
    try:
        game = sheet_game(tmp_path, other.url("/events.csv", host="127.0.0.2", scheme="https"))
        run = cardgen(game, "--fetch", "validate", "outposts")
        assert run.code == 2
        assert "the address leads to 127.0.0.2, a private or local network: only public servers are fetched" in run.err
        assert other.requests == []
    finally:
        other.close()


def test_a_listing_kept_in_the_cache_follows_the_sheet(server, tmp_path):
    """`cardgen list` keeps what it printed for data it has seen; a sheet fetched again with another row is other
    data, listed again."""
    server.routes["/events.csv"] = Route(EVENTS)
    game = sheet_game(tmp_path, server.url("/events.csv"))
    assert cardgen(game, "trust", "outposts", "--fetch").code == 0
    first = cardgen(game, "list", "outposts", "--json")
    assert first.code == 0, first.err
    server.routes["/events.csv"] = Route(EVENTS + b"meteor-shower,3,Meteor Shower,Meteorschauer,Lose 1 {ore}.,\n")
    second = cardgen(game, "list", "outposts", "--json")

    def events(run) -> int:
        import json

        (listed,) = json.loads(run.out)
        return next(c["count"] for c in listed["components"] if c["id"] == "events")

    assert (events(first), events(second)) == (5, 8)


def test_a_damaged_fetch_record_is_named_and_allows_nothing(server, tmp_path, own_configuration):
    server.routes["/events.csv"] = Route(EVENTS)
    game = sheet_game(tmp_path, server.url("/events.csv"))
    record = own_configuration / "cardgen" / "fetch.json"
    record.parent.mkdir(parents=True)
    for text, said in (
        ("{not json", "cannot read the fetch record"),
        ('{"format": "x"}', "not a cardgen fetch record"),
    ):
        record.write_text(text)
        run = cardgen(game, "validate", "outposts")
        assert run.code == 2 and f"{record}: {said}" in run.err and "remove it to allow no fetching" in run.err
    assert server.requests == []
