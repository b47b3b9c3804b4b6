"""tests/mta/mail.py: the mail clients of tests/mta/check.sh, with
Debian's python3 and nothing else.

  mail.py port                  a free TCP port of 127.0.0.1
  mail.py listeners PID         the TCP addresses PID listens on, a line each
  mail.py send PORT DIR FILE    submit the mail FILE by SMTP to 127.0.0.1:PORT
                                and print its Message-ID
  mail.py find MAILDIR MSGID    the file of MAILDIR/new holding MSGID
  mail.py list MAILDIR          "Subject: S<tab>To: T" of each message of
                                MAILDIR/new, decoded
  mail.py answer MAILDIR MSGID  the To, Subject, From and text of the answer to
                                MSGID in MAILDIR/new (In-Reply-To: MSGID)

A mail file (tests/mta/mails/*.eml) is a message as a client writes it,
with LF line ends, and two header fields the test reads and never sends:

  X-Test: VERDICT [sign] [reply]
  X-Test-Answer: TEXT

VERDICT is what `crown inbox` prints for the mail (accepted or refused);
TEXT is a line of the text of crown's answer, blanks around it aside.  `sign`: the
message's own content (its Content-* fields and body) is signed by the
sender's key in the GnuPG home DIR/gnupg and sent as PGP/MIME (RFC 3156,
multipart/signed), as Thunderbird and mutt send it.  `reply`: the mail
answers the newest message in the sender's Maildir (DIR/mail/LOCALPART):
Subject "Re: ...", In-Reply-To and References are that message's, and a
line @QUOTE@ of the body becomes its text quoted with "> " under an
attribution line ("On DATE, NAME <ADDR> wrote:").  @PASSWORD@ is
replaced by the first line of DIR/password-LOCALPART.  A Date and a
Message-ID are added when the file has none, as every client does.
"""
import email
import email.policy
import email.utils
import os
import socket
import smtplib
import subprocess
import sys


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listeners(pid):
    """The host:port of every TCP socket in LISTEN that pid holds."""
    inodes = set()
    fds = "/proc/%s/fd" % pid
    for fd in os.listdir(fds):
        try:
            target = os.readlink(os.path.join(fds, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    out = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            col = row.split()
            if col[3] != "0A" or col[9] not in inodes:
                continue
            host, port = col[1].split(":")
            raw = bytes.fromhex(host)
            if len(raw) == 4:
                addr = socket.inet_ntop(socket.AF_INET, raw[::-1])
            else:
                # four little-endian 32-bit words
                raw = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                addr = "[%s]" % socket.inet_ntop(socket.AF_INET6, raw)
            out.append("%s:%d" % (addr, int(port, 16)))
    return out


def split_mail(text):
    """The header lines (folded lines kept with theirs) and the body."""
    head, _, body = text.partition("\n\n")
    fields = []
    for line in head.split("\n"):
        if line[:1] in (" ", "\t") and fields:
            fields[-1] += "\n" + line
        else:
            fields.append(line)
    return fields, body


def name_of(field):
    return field.split(":", 1)[0].strip().lower()


def value_of(fields, name):
    for f in fields:
        if name_of(f) == name:
            return f.split(":", 1)[1].strip()
    return None


def read_mail(path):
    with open(path, "rb") as f:
        return email.message_from_binary_file(f, policy=email.policy.default)


def text_of(msg):
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


def newest(maildir):
    new = os.path.join(maildir, "new")
    names = sorted(os.listdir(new),
                   key=lambda n: (os.stat(os.path.join(new, n)).st_mtime, n))
    if not names:
        sys.exit("mail.py: nothing in %s to reply to" % new)
    return read_mail(os.path.join(new, names[-1]))


def quote(msg):
    """msg's text quoted under an attribution line, as Gmail writes it."""
    when = email.utils.parsedate_to_datetime(msg["Date"])
    name, addr = email.utils.parseaddr(str(msg["From"]))
    lines = ["On %s, %s <%s> wrote:" % (
        when.strftime("%a, %d %b %Y at %H:%M"), name or addr, addr)]
    for line in text_of(msg).rstrip("\n").split("\n"):
        lines.append(">" if line == "" else "> " + line)
    return "\n".join(lines)


def sign(fields, body, signer, gnupghome):
    """fields and body as one multipart/signed message, its content
    (the Content-* fields and the body) signed by signer (RFC 3156)."""
    content = [f for f in fields if name_of(f).startswith("content-")]
    outer = [f for f in fields if not name_of(f).startswith("content-")
             and name_of(f) != "mime-version"]
    part = ("\n".join(content) + "\n\n" + body).replace("\n", "\r\n")
    sig = subprocess.run(
        ["gpg", "--homedir", gnupghome, "--batch", "--quiet",
         "--pinentry-mode", "loopback", "--passphrase", "",
         "--digest-algo", "SHA256", "--armor", "--detach-sign",
         "--local-user", signer],
        input=part.encode(), stdout=subprocess.PIPE, check=True).stdout
    boundary = "------------signed-" + os.urandom(8).hex()
    outer += ["MIME-Version: 1.0",
              "Content-Type: multipart/signed; micalg=pgp-sha256;\n"
              " protocol=\"application/pgp-signature\";\n"
              " boundary=\"%s\"" % boundary]
    body = ("This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n"
            "--%s\n%s\n--%s\n"
            "Content-Type: application/pgp-signature; name=\"signature.asc\"\n"
            "Content-Description: OpenPGP digital signature\n"
            "Content-Disposition: attachment; filename=\"signature.asc\"\n\n"
            "%s\n--%s--\n") % (boundary, part.replace("\r\n", "\n"),
                               boundary, sig.decode().rstrip("\n"), boundary)
    return outer, body


def send(port, top, path):
    with open(path, encoding="utf-8") as f:
        fields, body = split_mail(f.read())
    flags = (value_of(fields, "x-test") or "").split()[1:]
    fields = [f for f in fields if not name_of(f).startswith("x-test")]
    sender = email.utils.parseaddr(value_of(fields, "from"))[1]
    local = sender.split("@")[0]
    if "@PASSWORD@" in body:
        with open(os.path.join(top, "password-" + local)) as f:
            body = body.replace("@PASSWORD@", f.readline().strip())
    if "reply" in flags:
        orig = newest(os.path.join(top, "mail", local))
        subject = str(orig["Subject"])
        fields = [f for f in fields if name_of(f) != "subject"]
        fields += ["Subject: " + ("" if subject.startswith("Re:") else "Re: ")
                   + subject,
                   "In-Reply-To: " + orig["Message-ID"],
                   "References: " + orig["Message-ID"]]
        body = body.replace("@QUOTE@", quote(orig))
    if value_of(fields, "date") is None:
        fields.append("Date: " + email.utils.formatdate(localtime=True))
    if value_of(fields, "message-id") is None:
        fields.append("Message-ID: "
                      + email.utils.make_msgid(domain="camp.test"))
    if "sign" in flags:
        fields, body = sign(fields, body, sender, os.path.join(top, "gnupg"))
    data = ("\n".join(fields) + "\n\n" + body).replace("\n", "\r\n")
    rcpts = [a for _, a in email.utils.getaddresses(
        [value_of(fields, h) or "" for h in ("to", "cc")]) if a]
    with smtplib.SMTP("127.0.0.1", port, local_hostname="client.camp.test",
                      timeout=30) as smtp:
        smtp.sendmail(sender, rcpts, data.encode("utf-8"))
    print(value_of(fields, "message-id"))


def find(maildir, msgid, header):
    new = os.path.join(maildir, "new")
    for name in sorted(os.listdir(new)):
        msg = read_mail(os.path.join(new, name))
        if (msg[header] or "").strip() == msgid:
            return name, msg
    return None, None


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "port":
        print(free_port())
    elif cmd == "listeners":
        print("\n".join(listeners(args[0])))
    elif cmd == "send":
        send(int(args[0]), args[1], args[2])
    elif cmd == "find":
        name, _ = find(args[0], args[1], "Message-ID")
        if name is None:
            sys.exit(1)
        print(name)
    elif cmd == "list":
        new = os.path.join(args[0], "new")
        for name in sorted(os.listdir(new)):
            msg = read_mail(os.path.join(new, name))
            print("Subject: %s\tTo: %s" % (msg["Subject"], msg["To"]))
    elif cmd == "answer":
        _, msg = find(args[0], args[1], "In-Reply-To")
        if msg is None:
            sys.exit(1)
        print("To: %s\nSubject: %s\nFrom: %s\n\n%s" % (
            msg["To"], msg["Subject"], msg["From"], text_of(msg)))
    else:
        sys.exit("usage: mail.py port|listeners|send|find|answer ...")


if __name__ == "__main__":
    main()
