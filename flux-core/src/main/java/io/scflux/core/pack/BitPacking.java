package io.scflux.core.pack;

/**
 * Frame-of-reference bit packing in groups of {@link #GROUP} values, as BPCells stores counts: each group of
 * non-negative ints takes the bit width {@code w} of its largest value, and each long holds {@code 64 / w} whole
 * values (never one split across two words), so a group unpacks with a fixed shift and mask and no branch per value.
 */
final class BitPacking {

    static final int GROUP = 128;

    private BitPacking() {
    }

    /** Bits needed for {@code v >= 0}. */
    static int width(int v) {
        return 32 - Integer.numberOfLeadingZeros(v);
    }

    /** Longs a group of {@code n} values of width {@code w} occupies. */
    static int groupLongs(int w, int n) {
        if (w == 0) {
            return 0;
        }
        int perWord = 64 / w;
        return (n + perWord - 1) / perWord;
    }

    /** Packs {@code n <= GROUP} values of at most {@code w} bits from {@code src[from..]} into {@code dst[at..]}. */
    static void pack(int[] src, int from, int n, int w, long[] dst, int at) {
        if (w == 0) {
            return;
        }
        int perWord = 64 / w;
        int i = 0;
        while (i < n) {
            int end = Math.min(n, i + perWord);
            long word = 0;
            for (int j = end - 1; j >= i; j--) {
                word = word << w | (src[from + j] & 0xffffffffL);
            }
            dst[at++] = word;
            i = end;
        }
    }

    /** Unpacks {@code n <= GROUP} values of width {@code w} from {@code src[at..]} into {@code dst[to..]}. */
    static void unpack(long[] src, int at, int w, int[] dst, int to, int n) {
        // A literal width per case lets the JIT unroll the word loop (the common widths of counts and gaps).
        switch (w) {
            case 0 -> java.util.Arrays.fill(dst, to, to + n, 0);
            case 1 -> ints(src, at, 1, dst, to, n);
            case 2 -> ints(src, at, 2, dst, to, n);
            case 3 -> ints(src, at, 3, dst, to, n);
            case 4 -> ints(src, at, 4, dst, to, n);
            case 5 -> ints(src, at, 5, dst, to, n);
            case 6 -> ints(src, at, 6, dst, to, n);
            case 7 -> ints(src, at, 7, dst, to, n);
            case 8 -> ints(src, at, 8, dst, to, n);
            default -> ints(src, at, w, dst, to, n);
        }
    }

    private static void ints(long[] src, int at, int w, int[] dst, int to, int n) {
        int perWord = 64 / w;
        long mask = (1L << w) - 1;
        int i = 0;
        while (i < n) {
            long word = src[at++];
            int end = Math.min(n, i + perWord);
            for (; i < end; i++) {
                dst[to + i] = (int) (word & mask);
                word >>>= w;
            }
        }
    }

    /** As {@link #unpack} into floats (counts become the block's values without an int copy). */
    static void unpack(long[] src, int at, int w, float[] dst, int to, int n) {
        switch (w) {
            case 0 -> java.util.Arrays.fill(dst, to, to + n, 0f);
            case 1 -> floats(src, at, 1, dst, to, n);
            case 2 -> floats(src, at, 2, dst, to, n);
            case 3 -> floats(src, at, 3, dst, to, n);
            case 4 -> floats(src, at, 4, dst, to, n);
            case 5 -> floats(src, at, 5, dst, to, n);
            case 6 -> floats(src, at, 6, dst, to, n);
            case 7 -> floats(src, at, 7, dst, to, n);
            case 8 -> floats(src, at, 8, dst, to, n);
            default -> floats(src, at, w, dst, to, n);
        }
    }

    private static void floats(long[] src, int at, int w, float[] dst, int to, int n) {
        int perWord = 64 / w;
        long mask = (1L << w) - 1;
        int i = 0;
        while (i < n) {
            long word = src[at++];
            int end = Math.min(n, i + perWord);
            for (; i < end; i++) {
                dst[to + i] = (int) (word & mask);
                word >>>= w;
            }
        }
    }
}
