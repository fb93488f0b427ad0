#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""vdso-image-patch.py OP IN OUT: writes the vDSO image IN changed by OP
to OUT, for tests/vdso-image-test.sh (one corruption each) and the fuzz
corpus (elf/fuzz-vdso-image.sh).  OP names one change; OP=N passes
it a number.  Byte order and class come from the image."""
import struct
import sys

PT_LOAD, PT_DYNAMIC, PT_NOTE, PT_TLS = 1, 2, 4, 7
DT_NULL, DT_HASH, DT_STRTAB, DT_STRSZ, DT_RELA, DT_RELASZ = 0, 4, 5, 10, 7, 8
DT_RELAENT, DT_REL, DT_RELSZ, DT_PLTREL, DT_TEXTREL, DT_JMPREL = 9, 17, 18, 20, 22, 23
DT_PLTRELSZ, DT_RELRSZ, DT_RELR = 2, 35, 36
DT_VERDEF, DT_VERDEFNUM, DT_VERNEED, DT_VERNEEDNUM = 0x6ffffffc, 0x6ffffffd, 0x6ffffffe, 0x6fffffff
STT_OBJECT, STV_HIDDEN, VER_FLG_BASE = 1, 2, 1
BCL_NEXT, NOP = 0x429f0005, 0x60000000
VERSION = 'LINUX_2.6.15'

# Per structure: the fields and struct formats of ELFCLASS32 and ELFCLASS64.
EHDR = ('ident type machine version entry phoff shoff flags ehsize phentsize phnum '
        'shentsize shnum shstrndx')
SHDR = 'name type flags addr offset size link info addralign entsize'
LAYOUTS = {
    'ehdr': ((EHDR, '16sHHIIIIIHHHHHH'), (EHDR, '16sHHIQQQIHHHHHH')),
    'phdr': (('type offset vaddr paddr filesz memsz flags align', 'IIIIIIII'),
             ('type flags offset vaddr paddr filesz memsz align', 'IIQQQQQQ')),
    'shdr': ((SHDR, 'IIIIIIIIII'), (SHDR, 'IIQQQQIIQQ')),
    'sym': (('name value size info other shndx', 'IIIBBH'),
            ('name info other shndx value size', 'IBBHQQ')),
    'dyn': (('tag val', 'iI'), ('tag val', 'qQ')),
    'verdef': (('version flags ndx cnt hash aux next', 'HHHHIII'),) * 2,
    'verdaux': (('name next', 'II'),) * 2,
}


class Elf:
    def __init__(self, path):
        with open(path, 'rb') as f:
            self.b = bytearray(f.read())
        self.c64 = self.b[4] == 2
        self.bo = '<' if self.b[5] == 1 else '>'

    def layout(self, kind):
        fields, fmt = LAYOUTS[kind][self.c64]
        return fields.split(), self.bo + fmt

    def size(self, kind):
        return struct.calcsize(self.layout(kind)[1])

    def get(self, kind, off):
        fields, fmt = self.layout(kind)
        rec = dict(zip(fields, struct.unpack_from(fmt, self.b, off)))
        rec['at'] = off
        return rec

    def put(self, kind, rec):
        fields, fmt = self.layout(kind)
        struct.pack_into(fmt, self.b, rec['at'], *(rec[f] for f in fields))

    def table(self, kind, off, count):
        return [self.get(kind, off + i * self.size(kind)) for i in range(count)]

    def word(self, off, value=None):
        if value is not None:
            struct.pack_into(self.bo + 'I', self.b, off, value)
        return struct.unpack_from(self.bo + 'I', self.b, off)[0]

    def string(self, table, index):
        start = table + index
        return self.b[start:self.b.index(0, start)].decode()

    def segment(self, ptype):
        e = self.get('ehdr', 0)
        return next(p for p in self.table('phdr', e['phoff'], e['phnum']) if p['type'] == ptype)

    def section(self, name):
        e = self.get('ehdr', 0)
        sections = self.table('shdr', e['shoff'], e['shnum'])
        names = sections[e['shstrndx']]['offset']
        return next(s for s in sections if self.string(names, s['name']) == name)

    def dynamic(self):
        d = self.segment(PT_DYNAMIC)
        return self.table('dyn', d['offset'], d['filesz'] // self.size('dyn'))

    def dyn(self, tag):
        return next(d for d in self.dynamic() if d['tag'] == tag)

    def add_dyn(self, *tags):
        spare = [d for d in self.dynamic() if d['tag'] == DT_NULL]
        assert len(spare) > len(tags) // 2, 'no room in the dynamic section'
        for d, tag, val in zip(spare, tags[::2], tags[1::2]):
            d.update(tag=tag, val=val)
            self.put('dyn', d)

    def symbol(self, name):
        table, strings = self.section('.dynsym'), self.section('.dynstr')['offset']
        symbols = self.table('sym', table['offset'], table['size'] // self.size('sym'))
        return next(s for s in symbols if self.string(strings, s['name']) == name)

    def verdef_names(self):
        """Name -> string table index, of the version definitions there are."""
        strings, off, names = self.dyn(DT_STRTAB)['val'], self.dyn(DT_VERDEF)['val'], {}
        while True:
            vd = self.get('verdef', off)
            aux = self.get('verdaux', off + vd['aux'])
            names[self.string(strings, aux['name'])] = aux['name']
            if not vd['next']:
                return names
            off += vd['next']

    def append_loaded(self, data):
        """Appends data to the file and the PT_LOAD; returns its offset."""
        self.b += bytes(-len(self.b) % 8)
        off = len(self.b)
        self.b += data
        load = self.segment(PT_LOAD)
        load['filesz'] = load['memsz'] = len(self.b)
        self.put('phdr', load)
        return off


def elf_hash(name):
    h = 0
    for c in name.encode():
        h = (h << 4) + c
        g = h & 0xf0000000
        h = (h ^ (g >> 24)) & ~g & 0xffffffff
    return h


def set_verdefs(elf, defs):
    """Replaces the version definitions by defs, (flags, index, name) each."""
    names, vd, va = elf.verdef_names(), elf.size('verdef'), elf.size('verdaux')
    fmt = elf.bo + 'HHHHIII'
    aux = {n: struct.pack(elf.bo + 'II', names[n], 0) for n in names}
    out = [struct.pack(fmt, 1, flags, index, 1, elf_hash(name), vd,
                       vd + va if i + 1 < len(defs) else 0) + aux[name]
           for i, (flags, index, name) in enumerate(defs)]
    start = elf.append_loaded(b''.join(out))
    for tag, val in ((DT_VERDEF, start), (DT_VERDEFNUM, len(defs))):
        d = elf.dyn(tag)
        d['val'] = val
        elf.put('dyn', d)


def soname(elf):
    return next(n for n in elf.verdef_names() if n != VERSION)


def data_page_sites(elf, function=None):
    """The addis or addi after each "bcl 20,31,.+4; mflr" in .text (or
    in function)."""
    text = elf.section('.text')
    start, end = text['offset'], text['offset'] + text['size']
    if function:
        f = elf.symbol(function)
        start, end = f['value'], f['value'] + f['size']
    return [pc + 8 for pc in range(start, end - 8, 4)
            if elf.word(pc) == BCL_NEXT and elf.word(pc + 8) >> 26 in (14, 15)]


def lower_data_page(elf, sites, delta):
    """Makes the computations at sites find the data page delta bytes lower."""
    assert sites, 'no data page computation'
    for off in sites:
        w = elf.word(off)
        imm = (w & 0xffff) - ((w & 0x8000) << 1)
        imm -= delta >> 16 if w >> 26 == 15 else delta
        elf.word(off, (w & 0xffff0000) | (imm & 0xffff))


def note(elf, name):
    """File offsets of the desc and the name of the note called name."""
    seg = elf.segment(PT_NOTE)
    at, end = seg['offset'], seg['offset'] + seg['filesz']
    while at + 12 <= end:
        namesz, descsz = elf.word(at), elf.word(at + 4)
        desc = at + 12 + (namesz + 3 & ~3)
        if elf.b[at + 12:at + 12 + namesz] == name.encode() + b'\0':
            return desc, at + 12
        at = desc + (descsz + 3 & ~3)
    raise LookupError('no note ' + name)


def linux_image(elf, version):
    """As Linux's own image of a release (KERNEL_VERSION's number): no
    ppctime layout note, and the version note says that release."""
    elf.b[note(elf, 'ppctime')[1]] = ord('x')
    elf.word(note(elf, 'Linux')[0], version)


def change(elf, kind, rec, **fields):
    rec.update(fields)
    elf.put(kind, rec)


def main(op, src, dst):
    op, _, arg = op.partition('=')
    elf = Elf(src)
    sym, dyn = elf.symbol, elf.add_dyn
    time_fn = lambda **f: change(elf, 'sym', sym('__kernel_time'), **f)
    gettime = sym('__kernel_clock_gettime')
    text = elf.section('.text')
    rela_size = 24 if elf.c64 else 12
    dynamic = elf.segment(PT_DYNAMIC)
    ops = {
        'dynamic-vaddr': lambda: change(elf, 'phdr', dynamic, vaddr=dynamic['vaddr'] + 16,
                                        paddr=dynamic['paddr'] + 16),
        'tls-segment': lambda: change(elf, 'phdr', elf.segment(PT_NOTE), type=PT_TLS),
        'phdrs-outside-load': lambda: phdrs_outside_load(elf),
        'rela-without-relaent': lambda: dyn(DT_RELA, dynamic['vaddr'], DT_RELASZ, 0),
        'rela-wrong-relaent': lambda: dyn(DT_RELA, dynamic['vaddr'], DT_RELASZ, 0, DT_RELAENT, 16),
        'rel-without-relent': lambda: dyn(DT_REL, dynamic['vaddr'], DT_RELSZ, 0),
        'relr-without-relrent': lambda: dyn(DT_RELR, dynamic['vaddr'], DT_RELRSZ, 0),
        'pltrel-rel': lambda: dyn(DT_JMPREL, dynamic['vaddr'], DT_PLTRELSZ, 0, DT_PLTREL, DT_REL),
        'rela-entries': lambda: dyn(DT_RELA, dynamic['vaddr'], DT_RELASZ, rela_size,
                                    DT_RELAENT, rela_size),
        'textrel': lambda: dyn(DT_TEXTREL, 0),
        'verneed': lambda: dyn(DT_VERNEED, elf.dyn(DT_VERDEF)['val'], DT_VERNEEDNUM, 1),
        'hash-counts-differ': lambda: hash_counts_differ(elf),
        'verdef-index-twice': lambda: set_verdefs(
            elf, [(VER_FLG_BASE, 1, soname(elf)), (0, 2, VERSION), (0, 2, soname(elf))]),
        'base-verdef-index': lambda: set_verdefs(
            elf, [(VER_FLG_BASE, 3, soname(elf)), (0, 2, VERSION)]),
        'many-verdefs': lambda: many_verdefs(elf, int(arg)),
        'symbol-name': lambda: time_fn(name=elf.dyn(DT_STRSZ)['val'] + 100),
        'symbol-value': lambda: time_fn(value=0x10000000),
        'function-inside-function': lambda: time_fn(value=gettime['value'] + 8, size=8),
        'function-alias': lambda: time_fn(value=gettime['value'], size=gettime['size']),
        'function-misaligned': lambda: time_fn(value=sym('__kernel_time')['value'] + 2),
        'function-size-zero': lambda: time_fn(size=0),
        'function-size-partial': lambda: time_fn(size=6),
        'function-outside-code': lambda: time_fn(value=0x40, size=8),
        'function-past-code': lambda: time_fn(
            value=(text['addr'] + text['size'] - 4) & ~3, size=8),
        'export-object': lambda: time_fn(info=sym('__kernel_time')['info'] & 0xf0 | STT_OBJECT),
        'export-hidden': lambda: time_fn(other=sym('__kernel_time')['other'] & ~3 | STV_HIDDEN),
        'version-symbol-value': lambda: change(elf, 'sym', sym(VERSION), value=0x1234),
        'data-page-lower': lambda: lower_data_page(elf, data_page_sites(elf), int(arg)),
        'one-data-page-lower': lambda: lower_data_page(
            elf, data_page_sites(elf, '__kernel_time'), int(arg)),
        'no-data-page': lambda: [elf.word(pc - 8, NOP) for pc in data_page_sites(elf)],
        'layout-note': lambda: elf.word(note(elf, 'ppctime')[0], int(arg)),
        'linux-image': lambda: linux_image(elf, int(arg, 0)),
    }
    ops[op]()
    with open(dst, 'wb') as f:
        f.write(elf.b)


def many_verdefs(elf, n):
    """n more version definitions, with indexes from 3 (0x7ffd of them, then
    again), before the node the symbols name: a walk from the start to it
    is the longest."""
    base = soname(elf)
    set_verdefs(elf, [(VER_FLG_BASE, 1, base)] +
                [(0, 3 + i % 0x7ffd, base) for i in range(n)] + [(0, 2, VERSION)])


def phdrs_outside_load(elf):
    """The program headers moved past the end of the PT_LOAD."""
    e = elf.get('ehdr', 0)
    size = e['phnum'] * e['phentsize']
    headers = bytes(elf.b[e['phoff']:e['phoff'] + size])
    elf.b += bytes(-len(elf.b) % 8)
    change(elf, 'ehdr', e, phoff=len(elf.b))
    elf.b += headers


def hash_counts_differ(elf):
    """DT_HASH counts one symbol more than DT_GNU_HASH (its table grows
    into the next one, which the segment still holds)."""
    h = elf.dyn(DT_HASH)['val']
    elf.word(h + 4, elf.word(h + 4) + 1)


main(*sys.argv[1:])
