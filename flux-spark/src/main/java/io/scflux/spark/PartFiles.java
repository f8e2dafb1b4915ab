/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The part files a Spark task writes: the blocks of one run of a matrix's plan, one after the other, each a header
 * (block index, first row, rows, columns, entries, the stored values' dtype or -1) and its indptr, indices and values
 * in native order, then the values as stored where the block carries them ({@link ExactValues}). A task writes
 * its part under an attempt's name and renames it into place, so a retried or duplicated task leaves one whole part.
 */
final class PartFiles {

    private static final int HEADER = 4 + 8 + 4 + 4 + 4 + 4;

    private PartFiles() {}

    static Path part(Path folder, String matrix, int task) {
        return folder.resolve("part-" + matrix + "-" + task);
    }

    /**
     * Reads blocks {@code [range[0], range[1])} of {@code source} and writes them to their part; returns each block's
     * offset in it.
     */
    static long[] write(BlockSource source, BlockPlan plan, int[] range, Path part, String attempt) {
        long[] offsets = new long[range[1] - range[0]];
        Path temp = part.resolveSibling(part.getFileName() + "." + attempt);
        try (RowReader reader = source.open();
                FileChannel out = FileChannel.open(
                        temp,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            long at = 0;
            for (int b = range[0]; b < range[1]; b++) {
                RowBlock block = reader.read(b, plan.rowStart(b), plan.rowEnd(b));
                offsets[b - range[0]] = at;
                ByteBuffer buf = encode(block);
                while (buf.hasRemaining()) {
                    at += out.write(buf);
                }
            }
            out.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("writing part " + part, e);
        }
        try {
            Files.move(temp, part, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("renaming " + temp + " to " + part, e);
        }
        return offsets;
    }

    private static ByteBuffer encode(RowBlock block) {
        int nnz = block.nnz();
        ExactValues stored = block.exact();
        int storedType = stored == null ? -1 : stored.dtype().ordinal();
        int bytes = Math.toIntExact(HEADER + 4L * (block.nRows() + 1) + 8L * nnz + storedBytes(storedType, nnz));
        ByteBuffer buf = ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
        buf.putInt(block.blockIndex())
                .putLong(block.rowStart())
                .putInt(block.nRows())
                .putInt(block.nCols())
                .putInt(nnz)
                .putInt(storedType);
        buf.asIntBuffer().put(block.indptr());
        buf.position(buf.position() + 4 * (block.nRows() + 1));
        buf.asIntBuffer().put(block.indices());
        buf.position(buf.position() + 4 * nnz);
        buf.asFloatBuffer().put(block.values());
        buf.position(buf.position() + 4 * nnz);
        if (stored != null) {
            switch (ExactValues.arrayType(stored.dtype())) {
                case INT32 -> buf.asIntBuffer().put((int[]) stored.array());
                case FLOAT64 -> buf.asDoubleBuffer().put((double[]) stored.array());
                default -> buf.asLongBuffer().put((long[]) stored.array());
            }
            buf.position(buf.limit());
        }
        return buf.flip();
    }

    /** Bytes of {@code nnz} stored values of the dtype numbered {@code dtype}, or 0 for -1 (none). */
    private static long storedBytes(int dtype, int nnz) {
        return dtype < 0
                ? 0
                : (long) nnz * ExactValues.arrayType(DType.values()[dtype]).size();
    }

    /** The block at {@code offset} of an open part, which must be block {@code blockIndex}. */
    static RowBlock read(FileChannel in, long offset, int blockIndex, Path part) {
        try {
            ByteBuffer head = fill(in, offset, HEADER, part);
            int index = head.getInt();
            long rowStart = head.getLong();
            int nRows = head.getInt();
            int nCols = head.getInt();
            int nnz = head.getInt();
            int storedType = head.getInt();
            if (index != blockIndex) {
                throw new IllegalStateException(
                        part + ": block " + index + " at offset " + offset + ", expected " + blockIndex);
            }
            ByteBuffer body =
                    fill(in, offset + HEADER, 4L * (nRows + 1) + 8L * nnz + storedBytes(storedType, nnz), part);
            int[] indptr = new int[nRows + 1];
            int[] indices = new int[nnz];
            float[] values = new float[nnz];
            body.asIntBuffer().get(indptr);
            body.position(4 * (nRows + 1));
            body.asIntBuffer().get(indices);
            body.position(body.position() + 4 * nnz);
            body.asFloatBuffer().get(values);
            RowBlock block = RowBlock.of(index, rowStart, nCols, indptr, indices, values);
            if (storedType < 0) {
                return block;
            }
            body.position(body.position() + 4 * nnz);
            DType dtype = DType.values()[storedType];
            Object stored = ExactValues.newArray(dtype, nnz);
            switch (ExactValues.arrayType(dtype)) {
                case INT32 -> body.asIntBuffer().get((int[]) stored);
                case FLOAT64 -> body.asDoubleBuffer().get((double[]) stored);
                default -> body.asLongBuffer().get((long[]) stored);
            }
            return block.withExact(ExactValues.of(dtype, stored));
        } catch (IOException e) {
            throw new UncheckedIOException("reading part " + part, e);
        }
    }

    private static ByteBuffer fill(FileChannel in, long offset, long length, Path part) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(length)).order(ByteOrder.nativeOrder());
        while (buf.hasRemaining()) {
            if (in.read(buf, offset + buf.position()) < 0) {
                throw new IOException(part + " ends before offset " + (offset + length));
            }
        }
        return buf.flip();
    }
}
