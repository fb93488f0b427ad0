# SPDX-License-Identifier: LGPL-2.1-or-later
"""The floors: per vDSO call and word size, the instructions no correct
implementation of the call can avoid (with Linux's data page and ABI),
written out as the path such an implementation executes, so that their
count is the floor in instructions and llvm-mca (mca.py) gives the floor
in modelled cycles.  Each group says why it cannot go.  One dispatch order
is assumed throughout, ppctime's and Linux's: high-resolution clocks
first, then coarse, then MONOTONIC_RAW.

What every call pays: the data page found PC-relative (mflr, bcl, mflr:
the caller's link register kept, the image's address taken), on ppc64 an
addis besides (64 KiB pages put the page out of a displacement's reach;
its low half rides in each load's displacement), and the return: CR0[SO]
cleared (the caller may have left it set), the link register restored,
blr.

The design floor: the same path run by a generic C core behind thin
assembly entries, ppctime's design and Linux's since 5.11, which adds to
every call what no such implementation can avoid: the page's address made
whole to pass it (addi: C cannot fold a link-time displacement into its
loads), the entry's bl into the core and the core's blr (3 instructions);
and to gettimeofday 1000's reciprocal built in two instructions where the
floor loads it in one (C cannot address the image).  An implementation
below the design floor is hand-written assembly per call."""

# Groups: (why, [instruction, ...]); registers as a real implementation's,
# so the model sees the dependencies; displacements Linux 6.1's layout's
# (the datastore's differ in displacement only); on big-endian ppc64 the
# seq and clock_mode test is another rotate of the same load.
HEAD64 = [("the data page, PC-relative; the caller's link register kept",
           ["mflr 11", "bcl 20, 31, .+4", "mflr 5", "addis 5, 5, -2"])]
HEAD32 = [("the data page, PC-relative (4 KiB pages: within a displacement's reach)",
           ["mflr 11", "bcl 20, 31, .+4", "mflr 5"])]
RETURN = [("success: r3 0, CR0[SO] clear, the link register back",
           ["li 3, 0", "crclr 3", "mtlr 11", "blr"])]
CLOCK_IN_RANGE = [("the clock id in range (slw would wrap it)", ["cmplwi 3, 11", "bt 1, .+400"])]
HRES_CLOCK = [("a high-resolution clock: its bit in the class mask",
               ["li 9, 1", "slw 9, 9, 3", "andi. 10, 9, 2179", "bt 2, .+400"])]
COARSE_CLOCK = [("a coarse clock", ["andi. 9, 9, 96", "bf 2, .+400"])]
RAW_CLOCK = [("MONOTONIC_RAW", ["cmpwi 3, 4", "bf 2, .+400"])]


# The design's: after the head, the page's address whole and the call
# into the core (a call as the branch it is, as mca.py models one); on
# success the core's return to the entry, which sets CR0 from r3 (0: SO
# clear; mtcrf on ppc32, as its entry has it), the link register back,
# and returns.
C_CALL = [("the C core's: the page's address made whole to pass it, the call",
           ["addi 5, 5, 0", "b .+4"])]
# gettimeofday's 1000's reciprocal, as a compiler builds it.
C_RECIPROCAL = ["lis 12, 4194", "ori 12, 12, 19923"]


def head(bits, c_core):
    return (HEAD64 if bits == 64 else HEAD32) + (C_CALL if c_core else [])


def success(bits, c_core):
    if not c_core:
        return RETURN
    return [("success: r3 0; the core returns to the entry, which takes CR0 from r3 "
             "and returns", ["li 3, 0", "blr", "mtlr 11",
                             f"{'mtocrf' if bits == 64 else 'mtcrf'} 128, 3", "bnslr"])]


def seq_begin(bits, seq):
    if bits == 64:
        return [("seq and clock_mode in one load, one test: even and readable",
                 [f"ld 8, {seq}(5)", "rldicr. 9, 8, 63, 32", "bf 1, .+400"]),
                ("seq before the data", ["lwsync"])]
    return [("seq and clock_mode, one test: even and readable",
             [f"lwz 6, {seq}(5)", f"lwz 10, {seq + 4}(5)", "slwi 9, 6, 31", "or. 9, 9, 10",
              "bf 1, .+400"]),
            ("seq before the data", ["lwsync"])]


def seq_end(bits, seq):
    load, compare = ("ld 7", "cmpld 8, 7") if bits == 64 else ("lwz 8", "cmplw 6, 8")
    return [("the data before seq again; retry if a write came between",
             ["lwsync", f"{load}, {seq}(5)", compare, "bf 2, .-200"])]


def indexed(bits, base):
    """basetime[clock]: the clock id as an index, into r10 (ppc64) or r7."""
    reg = 10 if bits == 64 else 7
    return [("basetime[clock]", [f"{'sldi' if bits == 64 else 'slwi'} {reg}, 3, 4",
                                 f"add {reg}, 5, {reg}"])], reg


def hres(bits, seq, index, sec_words):
    """The timebase to nanoseconds in r9 and seconds in r10 (ppc64) or
    r0:r12 (ppc32), from vdso_data at SEQ; INDEX: basetime[clock], else
    basetime[0] (REALTIME) of the data at SEQ."""
    base, reg = (indexed(bits, seq) if index else ([], 5))
    off = 0 if index else seq
    if bits == 64:
        return [("the timebase", ["mfspr 6, 268"]),
                ("cycle_last, mult, shift", [f"ld 9, {seq + 8}(5)", f"lwz 0, {seq + 24}(5)",
                                             f"lwz 7, {seq + 28}(5)"]),
                ("(tb - cycle_last) * mult + nsec << shift, >> shift",
                 ["sub 9, 6, 9", "mulld 9, 9, 0"])
                ] + base + [
                ("", [f"ld 6, {off + 40}({reg})", "add 9, 9, 6", "srd 9, 9, 7"]),
                ("the seconds", [f"ld 10, {off + 32}({reg})"])]
    groups = [("the timebase: low half, high half (a carry between the reads shows as a"
               " delta of 2^32 or more, taken slowly)", ["mfspr 10, 268", "mfspr 7, 269"]),
              ("tb - cycle_last, 64 bits", [f"lwz 9, {seq + 12}(5)", f"lwz 8, {seq + 8}(5)",
                                            "subc 10, 10, 9", "subfe 9, 8, 7"]),
              ("below 2^32: one 32-bit multiply", ["cmpwi 9, 0", "bf 2, .+400"]),
              ("* mult, 64 bits", [f"lwz 8, {seq + 24}(5)", "mullw 9, 8, 10", "mulhwu 8, 8, 10"])
              ] + base + [
              ("+ nsec << shift, 64 bits", [f"lwz 0, {off + 44}({reg})",
                                            f"lwz 12, {off + 40}({reg})",
                                            "addc 9, 9, 0", "adde 8, 8, 12"]),
              (">> shift, 64 bits", [f"lwz 10, {seq + 28}(5)", "srw 9, 9, 10", "subfic 0, 10, 32",
                                     "slw 0, 8, 0", "or 9, 9, 0"]),
              ("the high word gone: nanoseconds in 32 bits",
               ["srw 10, 8, 10", "cmpwi 10, 0", "bf 2, .+400"]),
              ("the seconds", [f"lwz 0, {off + 36}({reg})"] + ([f"lwz 12, {off + 32}({reg})"]
                                                              if sec_words == 2 else []))]
    return groups


def ns_below_1e9(bits):
    compare = "cmpld 9, 8" if bits == 64 else "cmplw 9, 8"
    return [("ns below 1e9's high half: no carry into seconds (the exact test above it only)",
             ["lis 8, 15258", compare, "bf 0, .+400"])]


def stores(bits, words):
    if bits == 64:
        return [("the result", ["std 10, 0(4)", "std 9, 8(4)"])]
    if words == 4:      # __kernel_timespec: 64-bit seconds and nanoseconds
        return [("the result, 64-bit seconds and nanoseconds (r10 is 0: tested above)",
                 ["stw 12, 0(4)", "stw 0, 4(4)", "stw 10, 8(4)", "stw 9, 12(4)"])]
    return [("the result", ["stw 0, 0(4)", "stw 9, 4(4)"])]


def clock_gettime(bits, seq, raw_seq, clock, words, c_core):
    start = head(bits, c_core)
    dispatch = CLOCK_IN_RANGE + HRES_CLOCK
    if clock == "MONOTONIC_COARSE" or clock == "REALTIME_COARSE":
        base, reg = indexed(bits, seq)
        loads = ([f"ld 9, 40({reg})", f"ld 10, 32({reg})"] if bits == 64 else
                 [f"lwz 12, 32({reg})", f"lwz 0, 36({reg})", f"lwz 10, 40({reg})",
                  f"lwz 9, 44({reg})"])
        body = base + [("the base, as it is", loads)]
        return (start + dispatch + COARSE_CLOCK + seq_begin(bits, seq) + body + seq_end(bits, seq)
                + stores(bits, 4 if words == 4 else 2) + success(bits, c_core))
    if clock == "MONOTONIC_RAW":
        return (start + dispatch + COARSE_CLOCK + RAW_CLOCK + seq_begin(bits, raw_seq)
                + hres(bits, raw_seq, False, 2 if words == 4 else 1) + seq_end(bits, raw_seq)
                + ns_below_1e9(bits) + stores(bits, words) + success(bits, c_core))
    return (start + dispatch + seq_begin(bits, seq) + hres(bits, seq, True, 2 if words == 4 else 1)
            + seq_end(bits, seq) + ns_below_1e9(bits) + stores(bits, words) + success(bits, c_core))


def gettimeofday(bits, seq, c_core):
    """ns / 1000 by 1000's reciprocal, loaded from the image PC-relative
    (on ppc64 before the page's addis; a C core builds it), a high
    multiply and a shift."""
    shift = "srdi 9, 9, 6" if bits == 64 else "srwi 9, 9, 6"
    if c_core:
        start = head(bits, c_core)
        usec = [("ns / 1000: 1000's reciprocal built", C_RECIPROCAL + ["mulhwu 9, 9, 12", shift])]
    elif bits == 64:
        start = [("the data page, PC-relative; 1000's reciprocal from the image beside it",
                  ["mflr 11", "bcl 20, 31, .+4", "mflr 5", "lwz 12, 512(5)", "addis 5, 5, -2"])]
        usec = [("ns / 1000", ["mulhwu 9, 9, 12", shift])]
    else:
        start = HEAD32
        usec = [("ns / 1000: 1000's reciprocal from the image",
                 ["lwz 12, 512(5)", "mulhwu 9, 9, 12", shift])]
    result = ([("the result", ["std 10, 0(3)", "std 9, 8(3)"])] if bits == 64 else
              [("the result", ["stw 0, 0(3)", "stw 9, 4(3)"])])
    compare = "cmpdi" if bits == 64 else "cmpwi"
    return (start + [("tv NULL: nothing to write", [f"{compare} 3, 0", "bt 2, .+400"])]
            + seq_begin(bits, seq) + hres(bits, seq, False, 1) + seq_end(bits, seq)
            + ns_below_1e9(bits) + usec + result
            + [("tz NULL: nothing more", [f"{compare} 4, 0", "bf 2, .+400"])]
            + success(bits, c_core))


def time(bits, seq, c_core):
    load = f"ld 3, {seq + 32}(5)" if bits == 64 else f"lwz 3, {seq + 36}(5)"
    # It cannot fail: the core returns the seconds and the entry clears SO.
    back = ["blr"] if c_core else []
    return head(bits, c_core) + [
        ("clock_mode: in a time namespace the data is elsewhere",
         [f"lwz 10, {seq + 4}(5)", "cmpwi 10, 1", "bf 2, .+400"]),
        ("REALTIME's seconds into r3; tloc NULL: nothing to write",
         ["cmpdi 3, 0" if bits == 64 else "cmpwi 3, 0", load, "bt 2, .+8"]),
        ("CR0[SO] clear, the link register back", back + ["crclr 3", "mtlr 11", "blr"])]


def clock_getres(bits, seq, c_core):
    store = ["std 9, 8(4)", "std 10, 0(4)"] if bits == 64 else ["stw 9, 4(4)", "stw 10, 0(4)"]
    return head(bits, c_core) + CLOCK_IN_RANGE + [
        ("clock_mode: in a time namespace the data is elsewhere",
         [f"lwz 10, {seq + 4}(5)", "cmpwi 10, 1", "bt 1, .+400"]),
        ("a clock with a resolution here", ["li 9, 1", "slw 9, 9, 3", "andi. 10, 9, 2195",
                                            "bt 2, .+400"]),
        ("hrtimer_res; res NULL: nothing to write; 0 s",
         [f"lwz 9, {seq + 232}(5)", "cmpdi 4, 0" if bits == 64 else "cmpwi 4, 0",
          "bt 2, .+16", "li 10, 0"]),
        ("the result", store)] + success(bits, c_core)


# The records' configs of the floor and the design floor (c_core below).
CONFIGS = {"floor": False, "design-floor": True}

# vdso_data's offset in the page (Linux 6.1's layout: REFERENCE.md; the
# datastore's puts it elsewhere, which changes displacements only).
SEQ = {64: -672, 32: -9120}
VDSO_DATA_SIZE = 240


def floor(description, entry, clock, c_core=False):
    """The floor path of ENTRY (CLOCK) on the target: [(why, [insn])], or
    None where there is none (a call the vDSO hands to the kernel); with
    C_CORE the design floor's."""
    bits = int(description["class"])
    seq = SEQ[bits]
    raw = seq + VDSO_DATA_SIZE
    if entry in ("__kernel_clock_gettime", "__kernel_clock_gettime64"):
        if clock not in ("REALTIME", "MONOTONIC", "BOOTTIME", "TAI", "MONOTONIC_COARSE",
                         "REALTIME_COARSE", "MONOTONIC_RAW"):
            return None
        words = 4 if bits == 32 and entry.endswith("64") else 2
        return clock_gettime(bits, seq, raw, clock, words, c_core)
    if entry == "__kernel_gettimeofday":
        return gettimeofday(bits, seq, c_core)
    if entry == "__kernel_time":
        return time(bits, seq, c_core)
    if entry == "__kernel_clock_getres" and clock in ("REALTIME", "MONOTONIC", "BOOTTIME"):
        return clock_getres(bits, seq, c_core)
    return None


def instructions(groups):
    return [i for _, insns in groups for i in insns]
