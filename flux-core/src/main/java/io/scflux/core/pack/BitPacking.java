package io.scflux.core.pack;

/**
 * Frame-of-reference bit packing in groups of {@link #GROUP} values, as BPCells stores counts: each group of
 * non-negative ints takes the bit width of its largest value and occupies {@code 2 * width} longs, so groups stay
 * word-aligned and a group is unpacked with shifts alone.
 */
final class BitPacking {

    static final int GROUP = 128;

    private BitPacking() {
    }

    /** Bits needed for {@code v >= 0}. */
    static int width(int v) {
        return 32 - Integer.numberOfLeadingZeros(v);
    }

    /** Longs a group of width {@code w} occupies. */
    static int groupLongs(int w) {
        return 2 * w;
    }

    /** Packs {@code n <= GROUP} values of at most {@code w} bits from {@code src[from..]} into {@code dst[at..]}. */
    static void pack(int[] src, int from, int n, int w, long[] dst, int at) {
        if (w == 0) {
            return;
        }
        long bit = 0;
        for (int i = 0; i < n; i++) {
            long v = src[from + i] & 0xffffffffL;
            int word = at + (int) (bit >>> 6);
            int off = (int) (bit & 63);
            dst[word] |= v << off;
            if (off + w > 64) {
                dst[word + 1] |= v >>> (64 - off);
            }
            bit += w;
        }
    }

    /** Unpacks {@code n <= GROUP} values of width {@code w} from {@code src[at..]} into {@code dst[to..]}. */
    static void unpack(long[] src, int at, int w, int[] dst, int to, int n) {
        if (w == 0) {
            java.util.Arrays.fill(dst, to, to + n, 0);
            return;
        }
        long mask = (1L << w) - 1;
        long bit = 0;
        for (int i = 0; i < n; i++) {
            int word = at + (int) (bit >>> 6);
            int off = (int) (bit & 63);
            long v = src[word] >>> off;
            if (off + w > 64) {
                v |= src[word + 1] << (64 - off);
            }
            dst[to + i] = (int) (v & mask);
            bit += w;
        }
    }
}
