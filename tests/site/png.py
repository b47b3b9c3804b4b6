"""tests/site/png.py FILE: is the PNG a picture, not a blank page?  Decodes
it (8-bit RGB or RGBA, every filter) with zlib alone and prints
"WIDTHxHEIGHT COLOURS INKED": the distinct colours and the share of
pixels (per mille) unlike the top-left one.  Exits 1 when it cannot
read the file.
"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6):
        sys.exit("unexpected PNG kind %d/%d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = set()
    inked = 0
    first = None
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 255
        for x in range(0, stride, bpp * 4):    # every fourth pixel
            px = bytes(line[x:x + 3])
            if first is None:
                first = px
            colours.add(px)
            if px != first:
                inked += 1
        prev = line
    sampled = h * ((w + 3) // 4)
    print("%dx%d %d %d" % (w, h, len(colours), inked * 1000 // sampled))


main()
