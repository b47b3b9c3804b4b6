"""tests/site/pages.py ROOT PAGE...: each page of a crown site parses as
HTML5 without a single parse error (html5lib, a parser of the WHATWG
algorithm, in strict mode: inline SVG included), and every link and image of it (href, src, xlink:href, in the HTML and in
the inline SVG) names a file inside ROOT: no scheme, no host, no
absolute path, nothing missing.  Prints one line per problem and exits 1
on any; else "pages: N pages, M links, all resolve".
"""
import os
import sys
from urllib.parse import unquote, urlsplit

import html5lib

ATTRS = ("href", "src", "{http://www.w3.org/1999/xlink}href", "xlink:href")


def links(root):
    for el in root.iter():
        for key, value in el.attrib.items():
            name = key[1] if isinstance(key, tuple) else key
            if name in ATTRS or name.endswith("}href") or name == "src":
                yield el.tag, value


def main():
    top = os.path.realpath(sys.argv[1])
    bad = 0
    nlinks = 0
    pages = sys.argv[2:]
    for page in pages:
        with open(page, "rb") as f:
            data = f.read()
        parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
        try:
            tree = parser.parse(data)
        except html5lib.html5parser.ParseError as e:
            print("%s: not HTML5: %s" % (page, e))
            bad += 1
            continue
        here = os.path.dirname(os.path.realpath(page))
        for tag, url in links(tree):
            nlinks += 1
            u = urlsplit(url)
            if u.scheme or u.netloc or url.startswith("/"):
                print("%s: %s refers outside the site: %s" % (page, tag, url))
                bad += 1
                continue
            if not u.path:
                continue        # a fragment of the page itself
            target = os.path.realpath(os.path.join(here, unquote(u.path)))
            if not (target == top or target.startswith(top + os.sep)):
                print("%s: %s leads out of the site: %s" % (page, tag, url))
                bad += 1
            elif not os.path.isfile(target):
                print("%s: %s names a missing file: %s" % (page, tag, url))
                bad += 1
    if bad:
        sys.exit(1)
    print("pages: %d pages, %d links, all resolve" % (len(pages), nlinks))


main()
