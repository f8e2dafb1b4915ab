package io.scflux.core.pack;

import io.scflux.core.RowBlock;
import java.util.Arrays;

/**
 * A row block of counts held compressed: row lengths, column-index gaps and values bit-packed in groups of 128 (each
 * group as wide as its largest number). Counts are small and sorted indices of a sparse row are close together, so
 * a count block shrinks several fold and unpacks with shifts and a running sum. Blocks whose values are not
 * non-negative integers, or whose rows are not sorted by column, are kept as they are.
 */
public final class PackedBlock {

    private final int nRows;
    private final int nCols;
    private final int nnz;
    /** Packed streams: row lengths, then index gaps, then values; null when the block is kept unpacked. */
    private final long[] words;
    private final byte[] widths;
    private final int gapsAt;
    private final int valuesAt;
    private final int gapGroupsAt;
    private final int valueGroupsAt;
    private final RowBlock plain;

    private PackedBlock(int nRows, int nCols, int nnz, long[] words, byte[] widths, int gapsAt, int valuesAt,
                        int gapGroupsAt, int valueGroupsAt, RowBlock plain) {
        this.nRows = nRows;
        this.nCols = nCols;
        this.nnz = nnz;
        this.words = words;
        this.widths = widths;
        this.gapsAt = gapsAt;
        this.valuesAt = valuesAt;
        this.gapGroupsAt = gapGroupsAt;
        this.valueGroupsAt = valueGroupsAt;
        this.plain = plain;
    }

    /** Packs {@code block} when it holds counts in column order; otherwise keeps it as it is. */
    public static PackedBlock pack(RowBlock block) {
        int rows = block.nRows();
        int n = block.nnz();
        int[] ip = block.indptr();
        int[] idx = block.indices();
        float[] val = block.values();
        int[] lengths = new int[rows];
        int[] gaps = new int[n];
        int[] counts = new int[n];
        for (int r = 0; r < rows; r++) {
            lengths[r] = ip[r + 1] - ip[r];
            int previous = -1;
            for (int k = ip[r]; k < ip[r + 1]; k++) {
                float v = val[k];
                int c = (int) v;
                if (idx[k] <= previous || c != v || c < 0 || Float.floatToRawIntBits(v) == Integer.MIN_VALUE) {
                    return new PackedBlock(rows, block.nCols(), n, null, null, 0, 0, 0, 0, block);
                }
                gaps[k] = idx[k] - previous - 1;
                previous = idx[k];
                counts[k] = c;
            }
        }
        int lengthGroups = groups(rows);
        int gapGroups = groups(n);
        byte[] widths = new byte[lengthGroups + 2 * gapGroups];
        int total = sizeOf(lengths, rows, widths, 0) + sizeOf(gaps, n, widths, lengthGroups)
                + sizeOf(counts, n, widths, lengthGroups + gapGroups);
        long[] words = new long[total];
        int at = write(lengths, rows, widths, 0, words, 0);
        int gapsAt = at;
        at = write(gaps, n, widths, lengthGroups, words, at);
        int valuesAt = at;
        write(counts, n, widths, lengthGroups + gapGroups, words, at);
        return new PackedBlock(rows, block.nCols(), n, words, widths, gapsAt, valuesAt, lengthGroups,
                lengthGroups + gapGroups, null);
    }

    private static int groups(int n) {
        return (n + BitPacking.GROUP - 1) / BitPacking.GROUP;
    }

    /** Longs the stream takes, recording each group's width in {@code widths[first..]}. */
    private static int sizeOf(int[] v, int n, byte[] widths, int first) {
        int longs = 0;
        for (int g = 0; g * BitPacking.GROUP < n; g++) {
            int max = 0;
            int end = Math.min(n, (g + 1) * BitPacking.GROUP);
            for (int i = g * BitPacking.GROUP; i < end; i++) {
                max |= v[i];
            }
            int w = BitPacking.width(max);
            widths[first + g] = (byte) w;
            longs += BitPacking.groupLongs(w, end - g * BitPacking.GROUP);
        }
        return longs;
    }

    private static int write(int[] v, int n, byte[] widths, int first, long[] words, int at) {
        for (int g = 0; g * BitPacking.GROUP < n; g++) {
            int w = widths[first + g];
            int len = Math.min(BitPacking.GROUP, n - g * BitPacking.GROUP);
            BitPacking.pack(v, g * BitPacking.GROUP, len, w, words, at);
            at += BitPacking.groupLongs(w, len);
        }
        return at;
    }

    /** Whether the block is held packed (counts in column order) or as it came. */
    public boolean isPacked() {
        return plain == null;
    }

    public int nRows() {
        return nRows;
    }

    public int nnz() {
        return nnz;
    }

    /** Bytes held: what a cache weighs. */
    public long sizeInBytes() {
        return plain != null ? plain.sizeInBytes() : 8L * words.length + widths.length + 64;
    }

    /** The block again, as {@code blockIndex} starting at {@code rowStart}, with fresh arrays. */
    public RowBlock unpack(int blockIndex, long rowStart) {
        if (plain != null) {
            return RowBlock.of(blockIndex, rowStart, nCols, plain.indptr().clone(), plain.indices().clone(),
                    plain.values().clone());
        }
        int[] indptr = new int[nRows + 1];
        int[] lengths = new int[BitPacking.GROUP];
        int at = 0;
        int row = 0;
        for (int g = 0; g < gapGroupsAt; g++) {
            int w = widths[g];
            int n = Math.min(BitPacking.GROUP, nRows - g * BitPacking.GROUP);
            BitPacking.unpack(words, at, w, lengths, 0, n);
            for (int i = 0; i < n; i++, row++) {
                indptr[row + 1] = indptr[row] + lengths[i];
            }
            at += BitPacking.groupLongs(w, n);
        }
        int[] indices = new int[nnz];
        int[] gaps = lengths;
        at = gapsAt;
        row = 0;
        int rowEnd = nRows == 0 ? 0 : indptr[1];
        int column = -1;
        for (int g = 0; g * BitPacking.GROUP < nnz; g++) {
            int w = widths[gapGroupsAt + g];
            int first = g * BitPacking.GROUP;
            int n = Math.min(BitPacking.GROUP, nnz - first);
            BitPacking.unpack(words, at, w, gaps, 0, n);
            at += BitPacking.groupLongs(w, n);
            // gaps to columns: a running sum that restarts at each row
            for (int i = 0; i < n; i++) {
                int k = first + i;
                while (k == rowEnd) {
                    rowEnd = indptr[++row + 1];
                    column = -1;
                }
                column += gaps[i] + 1;
                indices[k] = column;
            }
        }
        float[] values = new float[nnz];
        at = valuesAt;
        for (int g = 0; g * BitPacking.GROUP < nnz; g++) {
            int w = widths[valueGroupsAt + g];
            int n = Math.min(BitPacking.GROUP, nnz - g * BitPacking.GROUP);
            BitPacking.unpack(words, at, w, values, g * BitPacking.GROUP, n);
            at += BitPacking.groupLongs(w, n);
        }
        return RowBlock.of(blockIndex, rowStart, nCols, indptr, indices, values);
    }

    @Override
    public String toString() {
        return "PackedBlock[" + nRows + " rows, nnz " + nnz + ", " + sizeInBytes() + " bytes"
                + (isPacked() ? "" : ", unpacked") + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PackedBlock p && nRows == p.nRows && nnz == p.nnz && Arrays.equals(words, p.words)
                && java.util.Objects.equals(plain, p.plain);
    }

    @Override
    public int hashCode() {
        return 31 * nnz + Arrays.hashCode(words);
    }
}
