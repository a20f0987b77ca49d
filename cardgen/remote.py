"""Items from an address: the team's spreadsheet, published as CSV (Google Sheets: File → Share → Publish to web →
CSV) or any HTTPS address of a CSV or XLSX file::

    cards: {url: "https://docs.google.com/spreadsheets/d/e/…/pub?output=csv"}
    cards: {url: "https://example.org/fleet.xlsx", sheet: Ships}

Fetching is not the folder's to decide. A game folder may come from a stranger, and an address it names would have
cardgen make a request the user did not ask for (telling a server they opened the folder, reaching a machine on
their own network). So a folder never fetches by itself: the user allows it, for one run (`cardgen --fetch …`) or
for good (`cardgen trust GAME --fetch`, kept in the user's own configuration, `fetch.json` beside the trust store,
for exactly the addresses the folder named then). Otherwise the copy kept from the last fetch is read, and without
one the error says how to allow it; `cardgen --offline …` never fetches. Only `https://` addresses are fetched
(`http://` to this machine alone, for tests and local servers), never `file:` or other schemes, nor an address with a
user name or password in it; every hop of a redirect is held to the same rules, and an address outside
`localhost` must not lead to a machine on a private, loopback or link-local network (checked on the connection
itself, after any DNS answer). A fetch is bounded like every other input: the body by `table_bytes`, the time by
`fetch_seconds`, the redirects by `fetch_redirects` (`cardgen limits`); nothing is decompressed.

Each address is fetched at most once a run and kept in the user's cache (`$XDG_CACHE_HOME/cardgen/sheets/`) with
when it was fetched; a build says which copy it printed. Errors name the address, and rows are named by it too:
`https://…/pub?output=csv:14: column 'cost' (scout): 'x' is not a whole number`.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urljoin, urlsplit

from cardgen import limits, network
from cardgen.errors import DataError, Location, Problem, clipped, display_path

if TYPE_CHECKING:  # the network modules load when a fetch happens: a build's cache check must stay quick
    import http.client
    import socket

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
FORMATS = {"csv": ".csv", "xlsx": ".xlsx"}
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
GRANTS_FORMAT = "cardgen-fetch/1"
CHUNK = 65_536
URL_KEY = re.compile(rb"\burl\s*:")  # a file that may name an address (`cards: {url: …}`): parsed only then

_this_run: dict[tuple[int, str], Kept] = {}  # what this run fetched, by address: fetched once a run


@dataclass(frozen=True)
class Kept:
    """A kept copy of what an address gave: its file, its format and when it was fetched (UTC, ISO 8601)."""

    url: str
    path: Path
    format: str
    fetched: str

    @property
    def when(self) -> str:
        """The fetch time as a note says it: `2026-11-27 10:02 UTC`."""
        return self.fetched[:16].replace("T", " ") + " UTC"


def refusal(url: str) -> str | None:
    """Why cardgen does not fetch from `url` (None: it may): the scheme, a user or password, no host."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"not an address ({exc})"
    del port  # read for its check alone: a port that is not a number is refused here
    if parts.scheme not in ("https", "http"):
        return f"'{parts.scheme or 'no'}:' addresses are not fetched: give an https:// address"
    if not parts.hostname:
        return "the address names no host"
    if parts.username is not None or parts.password is not None:
        return "an address with a user name or password in it is not fetched (publish the sheet instead)"
    if parts.scheme == "http" and parts.hostname not in LOCAL_HOSTS:
        return "only https:// addresses are fetched (http:// only from this machine)"
    return None


def obtain(url: str, folder: Path, table_format: str | None, where: Location) -> Kept:
    """The copy of `url` to read for the game in `folder`: fetched now when the user allowed it (once a run), else
    the kept copy; a `DataError` at `where` (the line naming the address) saying why there is none."""
    if reason := refusal(url):
        raise DataError([Problem(where, f"{clipped(url, 80)}: {reason}")])
    if (network.run(), url) in _this_run:
        return _this_run[network.run(), url]
    kept = kept_copy(url)
    policy = network.policy()
    may = policy == network.FETCH or (policy == network.ALLOWED and allowed(folder, url))
    if not may:
        if kept is not None:
            return kept
        how = (
            "you asked for no fetching (--offline), and it was never fetched"
            if policy == network.OFFLINE
            else f"a game folder cannot make cardgen fetch by itself: fetch it for this run with "
            f"'cardgen --fetch …', or allow this folder's addresses for good with 'cardgen trust "
            f"{folder.name} --fetch'"
        )
        raise DataError([Problem(where, f"{clipped(url, 80)}: no kept copy to read: {how}")])
    try:
        body, content_type = fetch(url)
        kept = keep(url, body, _format(url, table_format, content_type, body))
    except DataError as exc:
        raise DataError([Problem(where, f"{clipped(url, 80)}: {p.message}") for p in exc.problems]) from None
    _this_run[network.run(), url] = kept
    return kept


def _format(url: str, given: str | None, content_type: str, body: bytes) -> str:
    """csv or xlsx: as the file says (`format:`), else as the body shows (a zip is a workbook; a web page is a
    mistake), else the address's suffix or `output=` (Google's), else the content type."""
    if body.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html")):
        raise DataError(
            "the address gave a web page, not a table (publish the sheet to the web as CSV, or share a file)"
        )
    if given is not None:
        return given
    if body.startswith(b"PK\x03\x04"):
        return "xlsx"
    parts = urlsplit(url)
    suffix = Path(parts.path).suffix.lower().lstrip(".")
    asked = (parse_qs(parts.query).get("output") or parse_qs(parts.query).get("format") or [""])[0].lower()
    for candidate in (suffix, asked):
        if candidate in FORMATS:
            return candidate
    if content_type.split(";")[0].strip() == XLSX_TYPE:
        return "xlsx"
    return "csv"


# --- fetching ----------------------------------------------------------------------------------------------------


def fetch(url: str) -> tuple[bytes, str]:
    """The body and content type of `url`, following redirects held to the same rules; bounded in bytes, time and
    redirects. A `DataError` saying what went wrong."""
    bounds = limits.current()
    deadline = time.monotonic() + bounds.fetch_seconds
    local = urlsplit(url).hostname in LOCAL_HOSTS
    for _ in range(bounds.fetch_redirects + 1):
        if reason := refusal(url):
            raise DataError(f"redirected to {clipped(url, 80)}: {reason}")
        if local and urlsplit(url).hostname not in LOCAL_HOSTS:
            raise DataError(f"redirected from this machine to {clipped(url, 80)}")
        status, headers, body = _get(url, deadline, local)
        if status in (301, 302, 303, 307, 308) and headers.get("location"):
            url = urljoin(url, headers["location"])
            continue
        if status != 200:
            raise DataError(f"the server answered {status} {headers.get(':reason', '')}".rstrip())
        return body, headers.get("content-type", "")
    raise DataError(f"more than {bounds.fetch_redirects} redirects (raise it with --limit fetch_redirects=N)")


def _get(url: str, deadline: float, local: bool) -> tuple[int, dict[str, str], bytes]:
    """One request: the connection made and its far end checked before anything is said on it (TLS included)."""
    import http.client
    import socket
    import ssl

    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    sock: socket.socket | None = None
    connection: http.client.HTTPConnection | None = None
    try:
        sock = socket.create_connection((host, port), timeout=_remaining(deadline))
        _check_peer(sock, local)
        if parts.scheme == "https":
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
        connection = http.client.HTTPConnection(host, port, timeout=_remaining(deadline))
        connection.sock = sock  # the connection speaks over the socket checked (and secured) here
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", target, headers=_headers())
        with connection.getresponse() as response:  # closed with what it read, whatever happens
            headers = {k.lower(): v for k, v in response.getheaders()}
            headers[":reason"] = response.reason
            if response.status != 200:
                return response.status, headers, b""
            return 200, headers, _body(response, sock, deadline)
    except DataError:
        raise
    except ssl.SSLError as exc:
        raise DataError(f"the secure connection failed ({exc.reason or exc})") from None
    except TimeoutError:
        raise DataError(_too_slow()) from None
    except (OSError, http.client.HTTPException) as exc:
        raise DataError(f"cannot fetch ({type(exc).__name__}: {exc})") from None
    finally:
        if connection is not None:
            connection.close()
        if sock is not None:
            sock.close()


def _headers() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        mine = version("cardgen")
    except PackageNotFoundError:  # pragma: no cover - a source tree without an install
        mine = "unknown"
    accept = f"text/csv, {XLSX_TYPE}, */*;q=0.1"
    return {"User-Agent": f"cardgen/{mine}", "Accept": accept, "Accept-Encoding": "identity"}


def _check_peer(sock: socket.socket, local: bool) -> None:
    """The machine actually reached: this one for a `localhost` address, else one on the public internet."""
    import ipaddress

    address = ipaddress.ip_address(sock.getpeername()[0].split("%")[0])
    if local and not address.is_loopback:
        raise DataError(f"'localhost' reached {address}, not this machine")
    if not local and not address.is_global:
        raise DataError(f"the address leads to {address}, a private or local network: only public servers are fetched")


def _body(response: http.client.HTTPResponse, sock: socket.socket, deadline: float) -> bytes:
    """The response's bytes, refused past `table_bytes` (announced or read) or the deadline."""
    bound = limits.current().table_bytes
    announced = response.getheader("content-length")
    if announced is not None and announced.isdigit() and int(announced) > bound:
        raise DataError(_too_big(int(announced), bound))
    chunks, total = [], 0
    while True:
        sock.settimeout(_remaining(deadline))  # a server dripping a byte at a time still ends at the deadline
        chunk = response.read1(CHUNK)
        if not chunk:
            break
        total += len(chunk)
        if total > bound:
            raise DataError(_too_big(total, bound))
        chunks.append(chunk)
    return b"".join(chunks)


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise DataError(_too_slow())
    return left


def _too_slow() -> str:
    bound = limits.current().fetch_seconds
    return f"no answer within {bound:g} s (raise it with --limit fetch_seconds=N)"


def _too_big(size: int, bound: int) -> str:
    return f"more than {bound:,} bytes ({size:,} or more; raise it with --limit table_bytes=N if you mean it)"


# --- the kept copies -----------------------------------------------------------------------------------------------


def _kept_folder() -> Path:
    from cardgen.paths import user_cache

    return user_cache() / "sheets"


def _name(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8")).hexdigest()[:32]


def kept_copy(url: str) -> Kept | None:
    """The copy kept from the last fetch of `url`, if any (a damaged record is as good as none)."""
    folder = _kept_folder()
    record = folder / f"{_name(url)}.json"
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
        kept = Kept(url, folder / f"{_name(url)}{FORMATS[data['format']]}", data["format"], str(data["fetched"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return kept if data.get("url") == url and kept.path.is_file() else None


def keep(url: str, body: bytes, table_format: str) -> Kept:
    """Keep what `url` gave, with when, in the user's cache (written at once, whatever the command does next)."""
    from cardgen.output import all_or_nothing, write_atomic

    folder = _kept_folder()
    fetched = datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()
    kept = Kept(url, folder / f"{_name(url)}{FORMATS[table_format]}", table_format, fetched)
    record = {"url": url, "format": table_format, "fetched": fetched, "bytes": len(body),
              "sha256": hashlib.sha256(body).hexdigest()}  # fmt: skip
    with all_or_nothing(alone=True):
        write_atomic(kept.path, body)
        write_atomic(folder / f"{_name(url)}.json", json.dumps(record, indent=1).encode("utf-8"))
    return kept


# --- what the user allowed -----------------------------------------------------------------------------------------


def grants_path() -> Path:
    """The user's record of which game folders may fetch which addresses (beside the trust store)."""
    from cardgen.trust import store_path

    return store_path().with_name("fetch.json")


def _grants() -> dict[str, list[str]]:
    from cardgen.trust import user_record

    path = grants_path()
    folders = user_record(path, GRANTS_FORMAT, "folders", "the fetch record", "remove it to allow no fetching")
    if not isinstance(folders, dict) or not all(
        isinstance(urls, list) and all(isinstance(u, str) for u in urls) for urls in folders.values()
    ):
        raise DataError(f"{display_path(path)}: not a cardgen fetch record; remove it to allow no fetching")
    return folders


def allowed(folder: Path, url: str) -> bool:
    """Whether the user allowed the game in `folder` to fetch `url` for good."""
    return url in _grants().get(str(folder.resolve()), [])


def allow(folder: Path, urls: list[str]) -> None:
    """Allow the game in `folder` to fetch exactly `urls` (its addresses now), replacing what it was allowed."""
    from cardgen.output import write_atomic

    grants = _grants()
    grants[str(folder.resolve())] = sorted(set(urls))
    text = json.dumps({"format": GRANTS_FORMAT, "folders": dict(sorted(grants.items()))}, indent=1) + "\n"
    write_atomic(grants_path(), text.encode("utf-8"))


def disallow(folder: Path) -> bool:
    """Forget what the game in `folder` was allowed to fetch; False when it was allowed nothing."""
    from cardgen.output import write_atomic

    grants = _grants()
    if grants.pop(str(folder.resolve()), None) is None:
        return False
    text = json.dumps({"format": GRANTS_FORMAT, "folders": grants}, indent=1) + "\n"
    write_atomic(grants_path(), text.encode("utf-8"))
    return True


# --- the addresses a folder names ------------------------------------------------------------------------------------


def addresses(folder: Path) -> list[tuple[str, str | None, Location]]:
    """The addresses the component files of the game in `folder` take items from, with their `format:` and where
    each is written — read without fetching anything (for `cardgen trust --fetch` and the build's cache key)."""
    from cardgen.data.games import MANIFEST
    from cardgen.data.model import ITEM_KEY
    from cardgen.data.yaml_source import read_yaml
    from cardgen.files import inside

    found = []
    manifest = read_yaml(folder / MANIFEST).value
    components = manifest.get("components") if isinstance(manifest, dict) else None
    for ref in components if isinstance(components, list) else []:
        if not isinstance(ref, dict) or not isinstance(ref.get("file"), str) or ref.get("kind") not in ITEM_KEY:
            continue
        path = folder / ref["file"]
        if not inside(path, folder) or not names_address(path):
            continue
        doc = read_yaml(path)
        key = ITEM_KEY[ref["kind"]]
        table = doc.value.get(key) if isinstance(doc.value, dict) else None
        if isinstance(table, dict) and isinstance(table.get("url"), str):
            given = table.get("format") if isinstance(table.get("format"), str) else None
            found.append((table["url"], given, doc.where((key, "url"))))
    return found


def names_address(path: Path, data: bytes | None = None) -> bool:
    """Whether a YAML file may name an address (`url:`), looked for in its bytes (`data`, else read) before anything
    parses it."""
    if path.suffix.lower() not in (".yaml", ".yml") or (data is None and not path.is_file()):
        return False
    data = path.read_bytes() if data is None else data
    return b"url" in data and URL_KEY.search(data) is not None


def fingerprint(folder: Path, scanned: bool = False) -> str:
    """What the addresses of the game in `folder` give now (fetched if the user allowed it, else the kept copies),
    as one hash — part of a build's inputs, so that a changed sheet is printed again. '' for a game without any
    (`scanned`: the caller has looked at the folder's YAML files already and found one that may name one); anything
    wrong is left for the build to report."""
    try:
        if not scanned and not any(names_address(path) for path in folder.rglob("*.y*ml")):
            return ""  # most games: nothing fetched, nothing parsed
        named = addresses(folder)
    except (DataError, OSError):
        return "?"
    digest = hashlib.sha256()
    for url, given, where in named:
        try:
            kept = obtain(url, folder, given, where)
            digest.update(url.encode() + b"\0" + hashlib.sha256(kept.path.read_bytes()).digest())
        except (DataError, OSError):
            digest.update(url.encode() + b"\0?")
    return digest.hexdigest() if named else ""
