#!/usr/bin/env python3
"""svc: the command line client of the account API.

One file, Python 3.8 or later, standard library only. Download it from {api_url}/v1/cli, then:

    export SERVICE_API_URL=https://api.example.com   # the account API's base URL
    export SERVICE_API_KEY=sk_live_...               # a key made in the portal's settings
    python3 svc.py dashboard

Every command prints the JSON answer on stdout and exits 0. A refusal prints the service's reason
(its `detail` sentence) on stderr and exits 1. `python3 svc.py COMMAND --help` explains a command.
"""

import argparse
import base64
import datetime
import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
import signal
import sys
import textwrap
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

VERSION = "1.0.0"

# SPEC: an Idempotency-Key is 8 to 64 letters, digits, dots, dashes, colons or underscores.
IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9.:_-]{8,64}$")


class Refusal(Exception):
    """Anything that ends the command with exit status 1: the message goes to stderr."""

    def __init__(self, message, status=None, retry_after=None):
        super().__init__(message)
        self.status = status  # the service's HTTP status, when it answered
        self.retry_after = retry_after


# --------------------------------------------------------------------------------------------------
# HTTP


class Client:
    def __init__(self, api_url, key, timeout):
        self.api_url = api_url
        self.key = key
        self.timeout = timeout

    def request(self, method, path, body=None, headers=None):
        if not path.startswith("/"):
            path = "/" + path
        url = self.api_url + path
        data = None
        all_headers = {
            "Authorization": "Bearer " + self.key,
            "Accept": "application/json",
            "User-Agent": "svc/%s python/%s" % (VERSION, sys.version.split()[0]),
        }
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as response:
                return decode(response.read(), response.headers.get("Content-Type", ""))
        except urllib.error.HTTPError as error:
            retry_after = error.headers.get("Retry-After") if error.headers else None
            raise Refusal(refusal_message(error), error.code, retry_after)
        except urllib.error.URLError as error:
            raise Refusal("Could not reach %s: %s. Check --api or SERVICE_API_URL." % (self.api_url, error.reason))
        except (TimeoutError, OSError) as error:
            raise Refusal("No answer from %s within %s seconds (%s); the request may or may not have been carried out."
                          % (self.api_url, self.timeout, error))


def decode(raw, content_type):
    text = raw.decode("utf-8", errors="replace")
    if "json" in content_type:
        try:
            return json.loads(text)
        except ValueError:
            pass
    return text


def refusal_message(error):
    """The `detail` sentence first, then what helps a person act on it (problems, the wait, the request id)."""
    raw = error.read()
    body = decode(raw, error.headers.get("Content-Type", "") if error.headers else "")
    lines = []
    if isinstance(body, dict) and isinstance(body.get("detail"), str):
        lines.append(body["detail"])
        if body.get("problems"):
            lines.append("problems:")
            lines.append(json.dumps(body["problems"], indent=2, ensure_ascii=False))
    else:
        snippet = body if isinstance(body, str) else json.dumps(body)
        lines.append("The service answered HTTP %s: %s" % (error.code, snippet.strip()[:300] or error.reason))
    if error.code == 429:
        # Reported, never waited out: the wait can be up to an hour (the order allowance), and a script
        # calling svc is better placed to decide whether to sleep.
        retry_after = error.headers.get("Retry-After") if error.headers else None
        lines.append("Rate limited: wait %s seconds (Retry-After) and run the command again."
                     % (retry_after if retry_after else "a few"))
    request_id = body.get("request_id") if isinstance(body, dict) else None
    code = body.get("code") if isinstance(body, dict) else None
    lines.append("(HTTP %s%s%s)" % (error.code, ", " + code if code else "", ", request id " + request_id if request_id else ""))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# Commands: each returns the JSON value to print.


def read_json_file(name):
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise Refusal("Cannot read %s: %s." % (name, error.strerror or error))
    try:
        value = json.loads(text)
    except ValueError as error:
        raise Refusal("%s is not valid JSON (%s); it must hold one JSON object." % ("stdin" if name == "-" else name, error))
    if not isinstance(value, dict):
        raise Refusal("%s must hold a JSON object, not a %s." % ("stdin" if name == "-" else name, type(value).__name__))
    return value


def cmd_get_simple(path):
    return lambda client, args: client.request("GET", path)


def cmd_get_page(path):
    """A paged list (docs/api.md, "Pagination"): --limit and --starting-after become the query."""
    def handler(client, args):
        query = {}
        if args.limit is not None:
            query["limit"] = args.limit
        if args.starting_after:
            query["starting_after"] = args.starting_after
        return client.request("GET", path + ("?" + urllib.parse.urlencode(query) if query else ""))
    return handler


def cmd_deliverability(client, args):
    return client.request("GET", "/v1/portal/analytics?" + urllib.parse.urlencode({"period": args.period}))


def cmd_reports(client, args):
    query = {"limit": args.limit}
    if args.starting_after:
        query["starting_after"] = args.starting_after
    if args.domain:
        query["domain"] = args.domain
    return client.request("GET", "/v1/portal/reports?" + urllib.parse.urlencode(query))


def cmd_sources(client, args):
    return client.request("GET", "/v1/portal/domains/%s/sources?%s" % (
        urllib.parse.quote(args.domain, safe=""), urllib.parse.urlencode({"period": args.period})))


def cmd_report_days(client, args):
    return client.request("GET", "/v1/portal/reports/daily?" + urllib.parse.urlencode({"period": args.period}))


def cmd_tls_days(client, args):
    return client.request("GET", "/v1/portal/reports/tls-daily?" + urllib.parse.urlencode({"period": args.period}))


def cmd_alert_settings(client, args):
    if args.dmarc_threshold is None:
        return client.request("GET", "/v1/alerts/settings")
    value = None if args.dmarc_threshold == "default" else float(args.dmarc_threshold)
    return client.request("PUT", "/v1/alerts/settings", {"dmarc_pass_rate_threshold": value})


def cmd_upload_report(client, args):
    with open(args.file, "rb") as handle:
        content = base64.b64encode(handle.read()).decode("ascii")
    return client.request("POST", "/v1/reports", {"content": content, "filename": os.path.basename(args.file)})


def cmd_preview(client, args):
    return client.request("POST", "/v1/orders/preview", read_json_file(args.file))


def cmd_order(client, args):
    if not args.yes:
        raise Refusal("Not placed: an order charges the card on file at once. Check it with "
                      "`svc preview %s`, then run this command again with --yes." % args.file)
    body = read_json_file(args.file)
    key = args.idempotency_key
    if key is None:
        key = "svc-" + uuid.uuid4().hex
        sys.stderr.write("Idempotency-Key: %s\n(if this command fails or you are unsure whether it went through, run it "
                         "again with --idempotency-key %s: the service never places a second order for one key)\n" % (key, key))
        sys.stderr.flush()
    elif not IDEMPOTENCY_KEY.match(key):
        raise Refusal("--idempotency-key must be 8 to 64 letters, digits, dots, dashes, colons or underscores.")
    return client.request("POST", "/v1/orders", body, {"Idempotency-Key": key})


def idempotency_key_for(args, what):
    """The --idempotency-key given, or a new one printed on stderr so the caller can retry with it."""
    key = args.idempotency_key
    if key is None:
        key = "svc-" + uuid.uuid4().hex
        sys.stderr.write("Idempotency-Key: %s\n(if this command fails or you are unsure whether it went through, run it "
                         "again with --idempotency-key %s: the service never %s twice for one key)\n" % (key, key, what))
        sys.stderr.flush()
    elif not IDEMPOTENCY_KEY.match(key):
        raise Refusal("--idempotency-key must be 8 to 64 letters, digits, dots, dashes, colons or underscores.")
    return key


def cmd_reinstate(client, args):
    if not args.yes:
        raise Refusal("Not reinstated: reinstating starts a new subscription charged to the card on file at once. "
                      "Run this command again with --yes.")
    if not re.match(r"^[0-9]+$", args.order_id):
        raise Refusal("ORDER_ID is the order's order_id, a number (svc get /v1/portal/orders lists them).")
    key = idempotency_key_for(args, "charges a reinstatement")
    return client.request("POST", "/v1/orders/%s/reinstate" % args.order_id, None, {"Idempotency-Key": key})


def cmd_setup_link(client, args):
    body = {name: value for name, value in (("success_url", args.success_url), ("cancel_url", args.cancel_url)) if value}
    return client.request("POST", "/v1/payment-method/setup-link", body)


def cmd_verify(client, args):
    body = {"connection_id": connection_id(client, args.connection)} if args.connection is not None else None
    answer = client.request("POST", "/v1/domains/%s/verify" % urllib.parse.quote(args.domain.strip(), safe=""), body)
    if isinstance(answer, dict) and answer.get("verified") is False:
        # The answer still goes to stdout (it names the record to publish); the exit status says "not yet".
        sys.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        raise Refusal(answer.get("detail") or "%s is not verified yet." % args.domain)
    return answer


def connection_id(client, value):
    """A DNS connection's id from what was typed: the id itself, or its label (GET /v1/dns-connections)."""
    value = value.strip()
    if value.isdigit():
        return int(value)
    answer = client.request("GET", "/v1/dns-connections")
    connections = answer if isinstance(answer, list) else answer.get("data", [])
    found = [c for c in connections if (c.get("label") or "").strip().lower() == value.lower()]
    if len(found) == 1:
        return found[0]["connection_id"]
    names = ", ".join("%s (%s)" % (c["connection_id"], c.get("label") or "no label") for c in connections) or "none yet"
    if not found:
        raise Refusal("No DNS connection is labelled \"%s\"; give its id or its label. Yours: %s." % (value, names))
    raise Refusal("%d DNS connections are labelled \"%s\"; give the id of one. Yours: %s." % (len(found), value, names))


def cmd_setup(client, args):
    path = "/v1/domains/%s/setup" % urllib.parse.quote(args.domain.strip(), safe="")
    if args.dry_run and args.apply is None:
        raise Refusal("--dry-run goes with --apply CONNECTION: svc setup DOMAIN --apply 3 --dry-run")
    if args.apply is not None:
        return client.request("POST", path + "/apply", {"connection_id": connection_id(client, args.apply), "dry_run": args.dry_run})
    if args.zone:
        return client.request("GET", path + "/zone")
    return client.request("POST" if args.check else "GET", path + ("/check" if args.check else ""))


def cmd_setup_applies(client, args):
    path = "/v1/domains/%s/setup/applies" % urllib.parse.quote(args.domain.strip(), safe="")
    return cmd_get_page(path)(client, args)


def cmd_setup_revert(client, args):
    path = "/v1/domains/%s/setup/applies/%d/revert" % (urllib.parse.quote(args.domain.strip(), safe=""), args.apply_id)
    return client.request("POST", path, {"dry_run": args.dry_run})


def cmd_dmarc_ramp(client, args):
    path = "/v1/domains/%s/dmarc-ramp" % urllib.parse.quote(args.domain.strip(), safe="")
    if args.dry_run and args.advance is None:
        raise Refusal("--dry-run goes with --advance CONNECTION: svc dmarc-ramp DOMAIN --advance 3 --dry-run")
    if args.advance is not None:
        return client.request("POST", path + "/advance", {"connection_id": connection_id(client, args.advance), "dry_run": args.dry_run})
    return client.request("GET", path)


def cmd_dmarc_ramp_auto(client, args):
    if args.state is None:
        return client.request("GET", "/v1/dmarc-ramp/settings")
    return client.request("PUT", "/v1/dmarc-ramp/settings", {"auto_advance": args.state == "on"})


def cmd_get(client, args):
    return client.request("GET", args.path)


def cmd_post(client, args):
    return client.request("POST", args.path, read_json_file(args.file) if args.file else None)


def cmd_put(client, args):
    return client.request("PUT", args.path, read_json_file(args.file) if args.file else None)


def cmd_delete(client, args):
    return client.request("DELETE", args.path)


# --------------------------------------------------------------------------------------------------
# listen: follow the events list and forward each new event to a local receiver, signed.

# An event's `created` is when its change began (its transaction's start), so one can appear in the
# list a little after a newer one. Each poll therefore looks back this far behind the newest event
# seen, and the ids already seen keep anything from going out twice.
LISTEN_LOOKBACK = datetime.timedelta(seconds=60)
LISTEN_PAGE = 100  # events per request (the list's maximum)
LISTEN_MAX_PAGES = 20  # per poll; anything further back is picked up by the next poll while in the window
FORWARD_ANSWER_BYTES = 4096  # of the receiver's answer, read and dropped (as our deliveries do)
SINCE = re.compile(r"^(\d+)([smhd])$")
SINCE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_created(text):
    """An event's `created` (ISO 8601, UTC, as `2026-11-27T15:00:00.123Z`) as an aware datetime."""
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def sign(secret, body, timestamp):
    """The Webhook-Signature header, exactly as the service signs deliveries (docs/operations.md)."""
    digest = hmac.new(secret.encode("utf-8"), ("%d." % timestamp).encode("utf-8") + body, hashlib.sha256).hexdigest()
    return "t=%d,v1=%s" % (timestamp, digest)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A receiver's redirect is its answer (deliveries do not follow redirects either)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


FORWARDER = urllib.request.build_opener(NoRedirects)


def forward(url, secret, event, timeout):
    """POSTs one event as a delivery would. Returns (status or None, a short note)."""
    body = json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "svc-listen/%s" % VERSION,
        "Webhook-Id": event["id"],
        "Webhook-Signature": sign(secret, body, int(time.time())),
    }
    req = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with FORWARDER.open(req, timeout=timeout) as response:
            response.read(FORWARD_ANSWER_BYTES)
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, ""
    except urllib.error.URLError as error:
        reason = getattr(error.reason, "strerror", None) or error.reason
        return None, "receiver unreachable (%s): is it running at %s?" % (reason, url)
    except (TimeoutError, OSError) as error:
        return None, "receiver did not answer within %s seconds (%s)" % (timeout, error)


class Listener:
    def __init__(self, client, forward_to, secret, types, timeout, out):
        self.client = client
        self.forward_to = forward_to
        self.secret = secret
        self.types = types
        self.timeout = timeout
        self.out = out
        self.seen = {}  # event id -> created, for the events inside the look-back window
        self.newest = None  # the newest `created` seen (the service's clock, never ours)
        self.forwarded = 0

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def fetch(self, floor):
        """The events newest first down to `floor` (on the first call with no floor: down to the
        newest event's time less the look-back). Returns them with the floor used."""
        found = []
        after = None
        for _ in range(LISTEN_MAX_PAGES):
            query = {"limit": LISTEN_PAGE}
            if after:
                query["starting_after"] = after
            page = self.client.request("GET", "/v1/events?" + urllib.parse.urlencode(query))
            if not isinstance(page, dict) or not isinstance(page.get("data"), list):
                raise Refusal("GET /v1/events did not answer an events page; is %s the account API?" % self.client.api_url)
            for event in page["data"]:
                created = parse_created(event["created"])
                if floor is None:
                    floor = created - LISTEN_LOOKBACK
                if created < floor:
                    return found, floor
                found.append((created, event))
            if not page.get("has_more") or not page["data"]:
                break
            after = page["data"][-1]["id"]
        return found, floor

    def remember(self, found):
        for created, event in found:
            self.seen[event["id"]] = created
            if self.newest is None or created > self.newest:
                self.newest = created
        if self.newest is not None:
            # Nothing older than the window is looked at again, so its ids need not be kept.
            cut = self.newest - LISTEN_LOOKBACK
            self.seen = {k: v for k, v in self.seen.items() if v >= cut}

    def start(self, since):
        """Marks what is already there as seen; with `since`, returns the events from then on, to forward."""
        found, floor = self.fetch(None)
        if since is None or floor is None:
            self.remember(found)
            return []
        since_time = datetime.datetime.now(datetime.timezone.utc) - since
        if since_time < floor:
            found, _ = self.fetch(since_time)
            if found and found[-1][0] > since_time and len(found) >= LISTEN_PAGE * LISTEN_MAX_PAGES:
                sys.stderr.write("Only the newest %d events since then are replayed.\n" % len(found))
        self.remember([(c, e) for c, e in found if c < since_time])
        return [(c, e) for c, e in found if c >= since_time]

    def poll(self):
        floor = None if self.newest is None else self.newest - LISTEN_LOOKBACK
        found, _ = self.fetch(floor)
        return [(c, e) for c, e in found if e["id"] not in self.seen]

    def deliver(self, batch):
        """Forwards a batch oldest first, each event once in this run."""
        for created, event in sorted(batch, key=lambda pair: (pair[0], pair[1]["id"])):
            if event["id"] in self.seen:
                continue
            self.remember([(created, event)])
            stamp = created.strftime("%Y-%m-%d %H:%M:%S")
            if self.types and event["type"] not in self.types:
                continue
            status, note = forward(self.forward_to, self.secret, event, self.timeout)
            self.forwarded += 1
            if status is None:
                self.say("%s  --> %s [%s]  !! %s" % (stamp, event["type"], event["id"], note))
            else:
                self.say("%s  --> %s [%s]  <-- %d %s" % (stamp, event["type"], event["id"], status,
                                                         "OK" if 200 <= status < 300 else "(the receiver refused it)"))


def parse_since(text):
    match = SINCE.match(text.strip())
    if not match:
        raise Refusal("--since is a number and a unit, such as 30s, 10m, 2h or 1d; not %r." % text)
    seconds = int(match.group(1)) * SINCE_UNITS[match.group(2)]
    if seconds > 30 * 86400:
        raise Refusal("--since reaches back at most 30d: the events list keeps 30 days.")
    return datetime.timedelta(seconds=seconds)


def cmd_listen(client, args):
    target = args.forward_to.strip()
    parts = urllib.parse.urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refusal("--forward-to must be an http:// or https:// URL, such as http://localhost:3000/hook; not %r." % target)
    secret = args.secret
    if secret is None:
        secret = "whsec_" + secrets.token_hex(24)  # the shape of an endpoint's secret
    elif len(secret) < 8 or not secret.isprintable() or secret.strip() != secret:
        raise Refusal("--secret must be at least 8 printable characters without surrounding spaces, "
                      "such as the whsec_... secret your receiver already checks.")
    if args.interval < 0.5:
        raise Refusal("--interval is at least 0.5 seconds (the events list allows 240 reads a minute per key).")
    if not 0 < args.forward_timeout <= 600:
        raise Refusal("--forward-timeout is a number of seconds above 0 and at most 600, such as 10.")
    types = set(t.strip() for t in args.events.split(",") if t.strip()) if args.events else set()
    since = parse_since(args.since) if args.since else None

    listener = Listener(client, target, secret, types, args.forward_timeout, sys.stdout)
    stop = []

    def on_signal(signum, frame):
        stop.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        replay = listener.start(since)  # a refusal here (a bad key, no scope) ends the command
        listener.say("Ready. Forwarding %s events to %s, checking every %g s (Ctrl-C stops)."
                     % ("new" if since is None else "the last %s and new" % args.since, target, args.interval))
        listener.say("Your local webhook signing secret is %s (%s)."
                     % (secret, "given with --secret" if args.secret is not None else "made for this run"))
        listener.deliver(replay)
        while True:
            time.sleep(args.interval)
            try:
                listener.deliver(listener.poll())
            except Refusal as refusal:
                if refusal.status in (401, 403):
                    raise
                wait = args.interval
                if refusal.status == 429 and refusal.retry_after and refusal.retry_after.isdigit():
                    wait = max(wait, float(refusal.retry_after))
                first = str(refusal).split("\n")[0]
                sys.stderr.write("Could not read the events list: %s Trying again in %g s.\n" % (first, wait))
                sys.stderr.flush()
                time.sleep(max(0.0, wait - args.interval))
    except KeyboardInterrupt:
        listener.say("Stopped. %d event%s forwarded in this run." % (listener.forwarded, "" if listener.forwarded == 1 else "s"))
        return None


# --------------------------------------------------------------------------------------------------
# Command line


def connection_options(suppress):
    """--api, --key and --timeout, accepted before or after the command name."""
    parser = argparse.ArgumentParser(add_help=False)
    default = (lambda value: argparse.SUPPRESS) if suppress else (lambda value: value)
    group = parser.add_argument_group("connection")
    group.add_argument("--api", metavar="URL", default=default(None),
                       help="base URL of the account API (overrides SERVICE_API_URL), e.g. https://api.example.com")
    group.add_argument("--key", metavar="KEY", default=default(None),
                       help="API key (overrides SERVICE_API_KEY); prefer the variable, as options show in the process list")
    group.add_argument("--timeout", metavar="SECONDS", type=float, default=default(60.0),
                       help="seconds to wait for an answer (default 60)")
    return parser


def build_parser():
    parser = argparse.ArgumentParser(
        prog="svc",
        parents=[connection_options(False)],
        description="Command line client of the account API. Prints JSON on stdout and exits 0; "
                    "a refusal prints the reason on stderr and exits 1.",
        epilog="Environment: SERVICE_API_URL (the account API's base URL) and SERVICE_API_KEY (a key from the "
               "portal's settings). Run `svc COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action="version", version="svc " + VERSION)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    common = [connection_options(True)]

    def add(name, summary, description, handler, epilog=None):
        sub = commands.add_parser(name, help=summary, description=textwrap.fill(description, max(40, min(shutil.get_terminal_size().columns - 2, 100))), epilog=epilog, parents=common,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(handler=handler)
        return sub

    add("catalogue", "what can be ordered, and prices",
        "Lists the plans this account can order (GET /v1/catalogue). A plan that cannot be ordered through "
        "the API says why in why_not.", cmd_get_simple("/v1/catalogue"))

    sub = add("preview", "check and price an order from a JSON file; creates nothing",
              "Previews an order (POST /v1/orders/preview): the same checks as placing, the quantity and the price, "
              "and every problem by domain. Nothing is created or charged. Needs a key with scope read.",
              cmd_preview, epilog=ORDER_FILE_HELP)
    sub.add_argument("file", metavar="FILE", help="JSON file holding the order request, or - for stdin")

    sub = add("order", "place an order from a JSON file (charges the card on file; needs --yes)",
              "Places an order (POST /v1/orders) and charges the card saved on the account. Needs a key with "
              "scope orders:place, and --yes. Without --idempotency-key a new key is made and printed on stderr: "
              "run the command again with that key to retry safely; the service never places a second order "
              "for one key.", cmd_order, epilog=ORDER_FILE_HELP)
    sub.add_argument("file", metavar="FILE", help="JSON file holding the order request, or - for stdin")
    sub.add_argument("--yes", action="store_true", help="confirm that the order should be placed and charged")
    sub.add_argument("--idempotency-key", metavar="K",
                     help="8 to 64 letters, digits, . - : _; reuse the key to retry the same order without placing it twice")

    sub = add("reinstate", "reinstate a cancelled order (charges the card on file; needs --yes)",
              "Reinstates a cancelled order within its grace period (POST /v1/orders/ORDER_ID/reinstate): a new "
              "subscription charged to the card saved on the account, the order active again and its suspended "
              "mailboxes taken up again at the provider. Needs a key with scope orders:place, and --yes. Without "
              "--idempotency-key a new key is made and printed on stderr: run the command again with that key to "
              "retry safely; the service never charges a reinstatement twice for one key.", cmd_reinstate)
    sub.add_argument("order_id", metavar="ORDER_ID", help="the cancelled order's order_id (svc get /v1/portal/orders)")
    sub.add_argument("--yes", action="store_true", help="confirm that the order should be reinstated and charged")
    sub.add_argument("--idempotency-key", metavar="K",
                     help="8 to 64 letters, digits, . - : _; reuse the key to retry without charging twice")

    add("payment-method", "whether a card is on file",
        "Shows whether a card is saved on the account, as brand and last four (GET /v1/payment-method).",
        cmd_get_simple("/v1/payment-method"))

    sub = add("setup-link", "a link where a person saves a card",
              "Makes a link to the payment processor's page where a person saves a card "
              "(POST /v1/payment-method/setup-link). Card details never pass through the API or this client. "
              "Needs a key with scope orders:place.", cmd_setup_link)
    sub.add_argument("--success-url", metavar="U", help="where the page sends the person once the card is saved, when reachable "
                     "(https on a public name, or the service's own host); without it, the portal's page confirming it")
    sub.add_argument("--cancel-url", metavar="U", help="where the page sends the person who gives up (the portal's billing page without it)")

    add("verification", "the TXT record that proves a domain is yours, and the domains verified",
        "Shows the account's verification token, the record to publish (TXT at _inbox-verification.<domain> "
        "holding inbox-verification=<token>) and the domains already verified (GET /v1/domains/verification). "
        "Preview and order refuse a domain until it is verified once.", cmd_get_simple("/v1/domains/verification"))

    sub = add("verify", "check now whether a domain's verification record is published",
              "Looks the TXT at _inbox-verification.DOMAIN up now (POST /v1/domains/DOMAIN/verify). Prints the "
              "answer; exits 0 when the domain is verified (it then stays verified), 1 when not, with what to "
              "publish on stderr. With --connection ID the record is first published through that DNS connection "
              "of yours (GET /v1/dns-connections lists them), so the domain is proved at once. Needs a key with scope write.", cmd_verify)
    sub.add_argument("domain", metavar="DOMAIN", help="the domain to verify, e.g. example.com")
    sub.add_argument("--connection", metavar="CONNECTION",
                     help="publish the proof record through this DNS connection first, by id or label "
                          "(GET /v1/dns-connections lists them)")

    sub = add("setup", "the records a domain needs, each with its status, and its build state",
              "Shows the records DOMAIN needs (MX, SPF merged into yours, DKIM, DMARC, forwarding, proof of control), "
              "each with its status from the service's checks (verified, missing, wrong with what was found, conflict), "
              "and its build state (GET /v1/domains/DOMAIN/setup). --check checks now and records the state that "
              "justifies (POST /v1/domains/DOMAIN/setup/check); --zone prints the records as a BIND zone-file snippet. "
              "Needs a key with scope read. --apply CONNECTION_ID publishes the records not yet verified through one of "
              "your DNS connections (POST /v1/domains/DOMAIN/setup/apply; scope write); with --dry-run it only prints "
              "the changes it would make.", cmd_setup)
    sub.add_argument("domain", metavar="DOMAIN", help="a domain on one of your orders, e.g. example.com")
    sub.add_argument("--check", action="store_true", help="check now and record the build state the records justify")
    sub.add_argument("--zone", action="store_true", help="print the records as a BIND zone-file snippet")
    sub.add_argument("--apply", metavar="CONNECTION",
                     help="publish the records not yet verified through this DNS connection, by id or label "
                          "(GET /v1/dns-connections lists them)")
    sub.add_argument("--dry-run", action="store_true", help="with --apply: print the changes without making them")

    sub = add("setup-applies", "the journal of a domain's publishes, to undo one",
              "Each apply that wrote records for DOMAIN (and each revert), newest first, with every RRset it touched "
              "as read before and after the write (GET /v1/domains/DOMAIN/setup/applies). has_more says whether "
              "another page follows. Needs a key with scope read.", cmd_setup_applies)
    sub.add_argument("domain", metavar="DOMAIN", help="a domain on one of your orders, e.g. example.com")
    sub.add_argument("--limit", type=int, metavar="N", help="applies per page, 1 to 100 (default 10)")
    sub.add_argument("--starting-after", metavar="APPLY_ID", help="the apply_id of the last apply of the previous page")

    sub = add("setup-revert", "undo a publish: put back the records an apply replaced",
              "Puts back exactly the RRsets apply APPLY_ID replaced (TTLs included) and removes what it added, "
              "through the connection it used (POST /v1/domains/DOMAIN/setup/applies/APPLY_ID/revert). Refused, "
              "listing them, when the zone changed since the apply; an apply is reverted once. With --dry-run it "
              "only prints the changes. Needs a key with scope write.", cmd_setup_revert)
    sub.add_argument("domain", metavar="DOMAIN", help="a domain on one of your orders, e.g. example.com")
    sub.add_argument("apply_id", type=int, metavar="APPLY_ID", help="an apply_id from svc setup-applies DOMAIN")
    sub.add_argument("--dry-run", action="store_true", help="print the changes without making them")

    for name, summary, description, path, cursor in (
            ("dashboard", "domains grouped by the order that paid for them",
             "The account's counts and its domains, a page at a time, grouped by order, with build state and mailbox "
             "count (GET /v1/portal/dashboard). has_more says whether another page follows.",
             "/v1/portal/dashboard", "the last domain of the previous page"),
            ("orders", "the account's orders",
             "The account's orders, newest first, a page at a time (GET /v1/portal/orders). has_more says whether "
             "another page follows.", "/v1/portal/orders", "the order_id of the last order of the previous page"),
            ("billing", "invoices, spend, what is due next",
             "This month's spend, anything past due, the next charge and the invoices, a page at a time "
             "(GET /v1/portal/billing). has_more says whether another page of invoices follows.",
             "/v1/portal/billing", "the number of the last invoice of the previous page")):
        sub = add(name, summary, description, cmd_get_page(path))
        sub.add_argument("--limit", type=int, metavar="N", help="items per page, 1 to 100 (default 10)")
        sub.add_argument("--starting-after", metavar="ID", help=cursor)
    sub = add("deliverability", "how the domains are sending",
              "Deliverability of each domain over a period (GET /v1/portal/analytics). A domain not yet watched "
              "carries null figures, not 0.", cmd_deliverability)
    sub.add_argument("--period", default="7d", metavar="P", help="1d, 7d (default), 14d, 30d or 90d")
    sub = add("reports", "DMARC and TLS-RPT reports received",
              "The account's DMARC aggregate and TLS-RPT reports, newest first (GET /v1/portal/reports).", cmd_reports)
    sub.add_argument("--limit", type=int, default=20, metavar="N", help="reports per page, 1 to 100 (default 20)")
    sub.add_argument("--starting-after", metavar="ID", help="the id of the last report of the previous page")
    sub.add_argument("--domain", metavar="DOMAIN", help="only this domain's reports")
    sub = add("sources", "who sends as a domain",
              "Each address sending as the domain, with messages and DMARC pass rate, from DMARC reports "
              "(GET /v1/portal/domains/{domain}/sources).", cmd_sources)
    sub.add_argument("domain")
    sub.add_argument("--period", default="7d", metavar="P", help="1d, 7d (default), 14d, 30d or 90d")
    sub = add("report-days", "reported messages and DMARC pass rate per day",
              "Every domain with the days a DMARC report covers: messages, passed, pass rate "
              "(GET /v1/portal/reports/daily). A domain without reports has no days.", cmd_report_days)
    sub.add_argument("--period", default="7d", metavar="P", help="1d, 7d (default), 14d, 30d or 90d")
    sub = add("tls-days", "TLS sessions to your domains per day, from TLS-RPT reports",
              "Every domain with the days a TLS-RPT report covers: successful and failed sessions and the success "
              "rate (GET /v1/portal/reports/tls-daily). A domain without reports has no days.", cmd_tls_days)
    sub.add_argument("--period", default="7d", metavar="P", help="1d, 7d (default), 14d, 30d or 90d")
    sub = add("dmarc-ramp", "the way to DMARC enforcement: where a domain stands, and the next step",
              "The step DOMAIN's published DMARC record stands on (none, quarantine_25, quarantine, reject), whether "
              "the next one is safe from the authenticated aggregate reports (14 days, 99%% passing, no failing "
              "sender of yours) and what blocks it, the failing sources and the timeline of steps "
              "(GET /v1/domains/DOMAIN/dmarc-ramp; scope read). --advance CONNECTION publishes the next step through "
              "that DNS connection, only when ready, keeping every tag and report address (POST "
              "/v1/domains/DOMAIN/dmarc-ramp/advance; scope write); with --dry-run it only prints the change. "
              "Undo a step with svc setup-revert DOMAIN APPLY_ID.", cmd_dmarc_ramp)
    sub.add_argument("domain", metavar="DOMAIN", help="a domain on one of your orders, e.g. example.com")
    sub.add_argument("--advance", metavar="CONNECTION", help="publish the next step through this DNS connection, by id or label")
    sub.add_argument("--dry-run", action="store_true", help="with --advance: print the change without making it")
    sub = add("dmarc-ramp-auto", "read or switch the automatic DMARC ramp",
              "Whether the DMARC ramp advances each proved domain with a DNS connection on its own when ready, and "
              "goes back a step when mail suffers, once a day (GET /v1/dmarc-ramp/settings); on or off sets it "
              "(PUT /v1/dmarc-ramp/settings; scope write).", cmd_dmarc_ramp_auto)
    sub.add_argument("state", nargs="?", choices=["on", "off"], help="on or off; left out: show it")
    sub = add("alert-settings", "read or set the report alert threshold",
              "The DMARC pass rate under which a report raises dmarc.failures (GET /v1/alerts/settings); "
              "with --dmarc-threshold, sets it (PUT /v1/alerts/settings).", cmd_alert_settings)
    sub.add_argument("--dmarc-threshold", metavar="PERCENT",
                     help="a percentage above 0 and at most 100, or 'default' for the service's default")
    sub = add("upload-report", "upload a DMARC or TLS-RPT report file",
              "Uploads a report file (.xml, .xml.gz, .zip, .eml, .json, .json.gz) forwarded from a mailbox "
              "(POST /v1/reports); each report in it is stored once.", cmd_upload_report)
    sub.add_argument("file")
    add("requests", "change requests and the replies",
        "Change requests and the service's replies (GET /v1/portal/requests).", cmd_get_simple("/v1/portal/requests"))
    add("workspaces", "folders and their domain counts",
        "Folders (workspaces) and the number of domains in each (GET /v1/portal/workspaces).",
        cmd_get_simple("/v1/portal/workspaces"))

    sub = add("listen", "forward the account's new events to a local receiver, signed as deliveries are",
              "Follows the events list (GET /v1/events) and POSTs each new event to --forward-to as a webhook "
              "delivery would: the event as JSON, Webhook-Id and Webhook-Signature headers, signed with a local "
              "secret printed at start (one made for the run, or --secret). Starts from now: events already there "
              "are not sent unless --since says how far back to begin. Each event goes once, oldest first; each "
              "line shows the event and the receiver's status, and a receiver that is down is reported and does "
              "not stop the command. Runs until Ctrl-C. Needs a key with scope write.",
              cmd_listen, epilog="Example: svc listen --forward-to http://localhost:3000/hook --events domain.live,webhook.test")
    sub.add_argument("--forward-to", metavar="URL", required=True, help="the local receiver, e.g. http://localhost:3000/hook")
    sub.add_argument("--secret", metavar="S",
                     help="sign with this secret instead of a new whsec_... one (e.g. the one your receiver already checks)")
    sub.add_argument("--since", metavar="AGE", help="first forward the events of the last AGE: 30s, 10m, 2h, 1d (at most 30d)")
    sub.add_argument("--events", metavar="TYPES", help="only these event types, comma-separated (default: all)")
    sub.add_argument("--interval", metavar="SECONDS", type=float, default=2.0, help="seconds between reads of the events list (default 2)")
    sub.add_argument("--forward-timeout", metavar="SECONDS", type=float, default=10.0,
                     help="seconds to wait for the receiver's answer (default 10, as deliveries)")

    sub = add("get", "GET any account API path",
              "Sends GET to any path of the account API and prints the answer.", cmd_get,
              epilog="Example: svc get '/v1/portal/analytics?period=30d'")
    sub.add_argument("path", metavar="PATH", help="a path such as /v1/portal/referrals, with its query string if any")
    sub = add("post", "POST a JSON file to any account API path",
              "Sends POST to any path of the account API, with FILE as the JSON body (no body without FILE).",
              cmd_post, epilog="Example: echo '{\"name\": \"Client B\"}' | svc post /v1/portal/workspaces -")
    sub.add_argument("path", metavar="PATH", help="a path such as /v1/portal/workspaces")
    sub.add_argument("file", metavar="FILE", nargs="?", help="JSON file holding the body, or - for stdin")
    sub = add("put", "PUT a JSON file to any account API path",
              "Sends PUT to any path of the account API, with FILE as the JSON body.", cmd_put,
              epilog="Example: echo '{\"name\": \"Renamed\"}' | svc put /v1/portal/workspaces/3 -")
    sub.add_argument("path", metavar="PATH", help="a path such as /v1/portal/workspaces/3")
    sub.add_argument("file", metavar="FILE", nargs="?", help="JSON file holding the body, or - for stdin")
    sub = add("delete", "DELETE any account API path", "Sends DELETE to any path of the account API.", cmd_delete)
    sub.add_argument("path", metavar="PATH", help="a path such as /v1/portal/workspaces/3")
    return parser


ORDER_FILE_HELP = """The order file names what to build, never what to charge:

  {
    "sku": "google-inbox-unwarmed",
    "promotion_code": "OPTIONAL",
    "domains": [
      {"domain": "example.com", "forward_to": "example.org",
       "mailboxes": [{"first_name": "Ada", "last_name": "Lovelace", "local_part": "ada"}]}
    ]
  }
"""


def connection(args):
    api = args.api or os.environ.get("SERVICE_API_URL", "")
    key = args.key or os.environ.get("SERVICE_API_KEY", "")
    if not api:
        raise Refusal("No API URL: pass --api URL or set SERVICE_API_URL to the account API's base URL "
                      "(the address this file was downloaded from, without /v1/cli).")
    if not key:
        raise Refusal("No API key: set SERVICE_API_KEY (or pass --key) to a key created in the portal's settings.")
    api = api.rstrip("/")
    if api.endswith("/v1"):
        api = api[: -len("/v1")]  # the paths already start with /v1
    if not re.match(r"^https?://", api):
        raise Refusal("The API URL must start with https:// (or http:// for a local service), not %r." % api)
    return Client(api, key, args.timeout)


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        if args.command == "order" and not args.yes:
            cmd_order(None, args)  # refuses before anything else is needed
        answer = args.handler(connection(args), args)
    except Refusal as refusal:
        sys.stderr.write(str(refusal) + "\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted.\n")
        return 130
    if answer is None:
        return 0  # listen: its output is already written
    if isinstance(answer, str):
        sys.stdout.write(answer if answer.endswith("\n") else answer + "\n")
    else:
        sys.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
