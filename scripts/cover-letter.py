#!/usr/bin/env python3
"""Refresh a topic's cover letter: the hand-written part stays, the rest
is made from git format-patch --cover-letter's.

    cover-letter.py COVER GENERATED COUNT BASE NEEDS

COVER is the topic's 0000-cover-letter.patch (made from GENERATED, with
its placeholders, when it does not exist yet: check-series fails until
they are replaced; a new one written by hand may end in a line
"*** SHORTLOG ***" where the generated part goes). Its subject gets the topic's patch count; everything
from the shortlog on is GENERATED's (shortlog and diffstat), followed by
the base the topic applies to (BASE: the Debian package and version) and
the topics it needs (NEEDS, space-separated, or empty).
"""
import os
import re
import sys

SHORTLOG = re.compile(r"^\S.* \(\d+\):$", re.M)


def tail(text, what):
    m = SHORTLOG.search(text)
    if not m:
        sys.exit("cover-letter.py: no shortlog in the %s cover letter" % what)
    return text[:m.start()], text[m.start():]


def main():
    cover, generated, count, base, needs = sys.argv[1:6]
    gen = open(generated).read()
    _, gen_tail = tail(gen, "generated")
    # format-patch ends with "-- \n<git version>" unless --no-signature
    gen_tail = gen_tail.rstrip("\n")
    if os.path.exists(cover):
        text = open(cover).read()
        if SHORTLOG.search(text):
            head, _ = tail(text, "existing")
        else:
            # a new cover letter: its text, and the shortlog to come
            head = text.replace("*** SHORTLOG ***\n", "").rstrip("\n") + "\n\n"
    else:
        head, _ = tail(gen, "generated")
    width = max(2, len(count))
    head = re.sub(r"^Subject: \[PATCH [0-9]+/[0-9]+\]",
                  "Subject: [PATCH %0*d/%s]" % (width, 0, count), head, count=1, flags=re.M)
    lines = [head + gen_tail, "",
             "base-commit: Debian %s" % base,
             "prerequisite-topics: %s" % (needs or "none"), ""]
    with open(cover, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
