/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.pack;

import io.scflux.core.BlockBuffer;
import io.scflux.core.RowBlock;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A row block of counts held compressed: row lengths, column-index gaps and values packed in groups of 128, each
 * group in as few whole bytes per number as its largest needs ({@link BytePacking}). Counts are small and sorted
 * indices of a sparse row are close together, so a count block shrinks about four fold and unpacks with vectorized
 * widening copies and a running sum. Blocks whose values are not non-negative integers, or whose rows are not sorted
 * by column, are kept as they are.
 */
public final class PackedBlock {

    /** The streams of a block kept unpacked ({@link #plain}): none. */
    private static final byte[] NONE = new byte[0];

    private final int nRows;
    private final int nCols;
    private final int nnz;
    /** Packed streams: row lengths, then index gaps, then values; none when the block is kept unpacked. */
    private final byte[] words;

    private final byte[] widths;
    private final int gapsAt;
    private final int valuesAt;
    private final int gapGroupsAt;
    private final int valueGroupsAt;
    /** The block itself where it is kept unpacked, else null. */
    private final @Nullable RowBlock plain;

    private PackedBlock(
            int nRows,
            int nCols,
            int nnz,
            byte[] words,
            byte[] widths,
            int gapsAt,
            int valuesAt,
            int gapGroupsAt,
            int valueGroupsAt,
            @Nullable RowBlock plain) {
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

    /**
     * Packs {@code block} when it holds counts in column order (and no stored values float32 changes); otherwise keeps
     * it as it is.
     */
    public static PackedBlock pack(RowBlock block) {
        if (block.exact() != null) {
            // stored values float32 does not hold: counts past 2^24 or fractions, kept as they came
            return new PackedBlock(block.nRows(), block.nCols(), block.nnz(), NONE, NONE, 0, 0, 0, 0, block);
        }
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
                    return new PackedBlock(rows, block.nCols(), n, NONE, NONE, 0, 0, 0, 0, block);
                }
                gaps[k] = idx[k] - previous - 1;
                previous = idx[k];
                counts[k] = c;
            }
        }
        int lengthGroups = groups(rows);
        int gapGroups = groups(n);
        byte[] widths = new byte[lengthGroups + 2 * gapGroups];
        int total = sizeOf(lengths, rows, widths, 0)
                + sizeOf(gaps, n, widths, lengthGroups)
                + sizeOf(counts, n, widths, lengthGroups + gapGroups);
        byte[] words = new byte[total];
        int at = write(lengths, rows, widths, 0, words, 0);
        int gapsAt = at;
        at = write(gaps, n, widths, lengthGroups, words, at);
        int valuesAt = at;
        write(counts, n, widths, lengthGroups + gapGroups, words, at);
        return new PackedBlock(
                rows, block.nCols(), n, words, widths, gapsAt, valuesAt, lengthGroups, lengthGroups + gapGroups, null);
    }

    private static int groups(int n) {
        return (n + BytePacking.GROUP - 1) / BytePacking.GROUP;
    }

    /** Bytes the stream takes, recording each group's bytes per value in {@code widths[first..]}. */
    private static int sizeOf(int[] v, int n, byte[] widths, int first) {
        int bytes = 0;
        for (int g = 0; g * BytePacking.GROUP < n; g++) {
            int max = 0;
            int end = Math.min(n, (g + 1) * BytePacking.GROUP);
            for (int i = g * BytePacking.GROUP; i < end; i++) {
                max |= v[i];
            }
            int b = BytePacking.bytesFor(max);
            widths[first + g] = (byte) b;
            bytes += b * (end - g * BytePacking.GROUP);
        }
        return bytes;
    }

    private static int write(int[] v, int n, byte[] widths, int first, byte[] words, int at) {
        for (int g = 0; g * BytePacking.GROUP < n; g++) {
            int b = widths[first + g];
            int len = Math.min(BytePacking.GROUP, n - g * BytePacking.GROUP);
            BytePacking.pack(v, g * BytePacking.GROUP, len, b, words, at);
            at += b * len;
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
        return plain != null ? plain.sizeInBytes() : words.length + widths.length + 64;
    }

    /** The block again, as {@code blockIndex} starting at {@code rowStart}, with fresh arrays. */
    public RowBlock unpack(int blockIndex, long rowStart) {
        if (plain != null) {
            return RowBlock.of(
                            blockIndex,
                            rowStart,
                            nCols,
                            plain.indptr().clone(),
                            plain.indices().clone(),
                            plain.values().clone())
                    .withExact(plain.exact());
        }
        int[] indptr = new int[nRows + 1];
        int[] indices = new int[nnz];
        float[] values = new float[nnz];
        unpack(indptr, indices, values);
        return RowBlock.of(blockIndex, rowStart, nCols, indptr, indices, values);
    }

    /** The block again, as {@code blockIndex} starting at {@code rowStart}, into {@code into}'s arrays. */
    public void unpackInto(int blockIndex, long rowStart, BlockBuffer into) {
        if (plain != null) {
            into.fill(plain.relocate(blockIndex, rowStart));
            return;
        }
        unpack(into.indptrFor(nRows), into.indicesFor(nnz), into.valuesFor(nnz));
        into.hold(blockIndex, rowStart, nRows, nCols);
    }

    /** Row pointers, column indices and values into the first entries of the arrays given. */
    private void unpack(int[] indptr, int[] indices, float[] values) {
        indptr[0] = 0;
        int[] lengths = new int[BytePacking.GROUP];
        int at = 0;
        int row = 0;
        for (int g = 0; g < gapGroupsAt; g++) {
            int b = widths[g];
            int n = Math.min(BytePacking.GROUP, nRows - g * BytePacking.GROUP);
            BytePacking.unpack(words, at, b, lengths, 0, n);
            for (int i = 0; i < n; i++, row++) {
                indptr[row + 1] = indptr[row] + lengths[i];
            }
            at += b * n;
        }
        at = gapsAt;
        for (int g = 0; g * BytePacking.GROUP < nnz; g++) {
            int b = widths[gapGroupsAt + g];
            int n = Math.min(BytePacking.GROUP, nnz - g * BytePacking.GROUP);
            BytePacking.unpack(words, at, b, indices, g * BytePacking.GROUP, n);
            at += b * n;
        }
        for (int r = 0; r < nRows; r++) {
            int column = -1;
            for (int k = indptr[r], end = indptr[r + 1]; k < end; k++) {
                column += indices[k] + 1;
                indices[k] = column;
            }
        }
        at = valuesAt;
        for (int g = 0; g * BytePacking.GROUP < nnz; g++) {
            int b = widths[valueGroupsAt + g];
            int n = Math.min(BytePacking.GROUP, nnz - g * BytePacking.GROUP);
            BytePacking.unpack(words, at, b, values, g * BytePacking.GROUP, n);
            at += b * n;
        }
    }

    @Override
    public String toString() {
        return "PackedBlock[" + nRows + " rows, nnz " + nnz + ", " + sizeInBytes() + " bytes"
                + (isPacked() ? "" : ", unpacked") + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PackedBlock p
                && nRows == p.nRows
                && nnz == p.nnz
                && Arrays.equals(words, p.words)
                && java.util.Objects.equals(plain, p.plain);
    }

    @Override
    public int hashCode() {
        return 31 * nnz + Arrays.hashCode(words);
    }
}
