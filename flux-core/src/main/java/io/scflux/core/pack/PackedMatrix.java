/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.pack;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A counts matrix held in memory as {@link PackedBlock}s: several times smaller than CSR float32 + int32, and a
 * {@link BlockSource} like any other (any row range can be read; the blocks it was packed in unpack directly).
 */
public final class PackedMatrix implements BlockSource {

    private final int nCols;
    private final DType dtype;
    private final BlockPlan plan;
    private final PackedBlock[] blocks;

    private PackedMatrix(int nCols, DType dtype, BlockPlan plan, PackedBlock[] blocks) {
        this.nCols = nCols;
        this.dtype = dtype;
        this.plan = plan;
        this.blocks = blocks;
    }

    /** Packs every block of {@code source} under {@code target}, reading it once, sequentially. */
    public static PackedMatrix from(BlockSource source, PlanTarget target) {
        return from(source, target, Execution.sequential());
    }

    /** Packs every block of {@code source} under {@code target}, reading with {@code execution}. */
    public static PackedMatrix from(BlockSource source, PlanTarget target, Execution execution) {
        BlockPlan plan = source.plan(target);
        List<PackedBlock> packed = Objects.requireNonNull(
                source.blocks(plan, execution)
                        .map(PackedBlock::pack)
                        .collectList()
                        .block(),
                "blocks");
        return new PackedMatrix(source.nCols(), source.dtype(), plan, packed.toArray(PackedBlock[]::new));
    }

    public static PackedMatrix from(BlockSource source) {
        return from(source, PlanTarget.DEFAULT);
    }

    @Override
    public long nRows() {
        return plan.totalRows();
    }

    @Override
    public int nCols() {
        return nCols;
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    /** Bytes held by the packed blocks. */
    public long sizeInBytes() {
        long n = 0;
        for (PackedBlock b : blocks) {
            n += b.sizeInBytes();
        }
        return n;
    }

    /** Stored entries. */
    public long nnz() {
        return plan.totalNnz();
    }

    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        int done = 0;
        while (done < count) {
            long row = rowFrom + done;
            int b = plan.blockOf(row);
            RowBlock block = blocks[b].unpack(b, plan.rowStart(b));
            int[] ip = block.indptr();
            int local = (int) (row - plan.rowStart(b));
            int n = Math.min(count - done, block.nRows() - local);
            for (int i = 0; i < n; i++) {
                out[done + i] = ip[local + i + 1] - ip[local + i];
            }
            done += n;
        }
    }

    /** The plan the matrix was packed with: its blocks unpack without slicing. */
    @Override
    public BlockPlan plan(PlanTarget target) {
        return target.equals(plan.target()) ? plan : BlockSource.super.plan(target);
    }

    @Override
    public RowReader open() {
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                return rows(blockIndex, from, to);
            }

            /** A block of the packed plan unpacks straight into the buffer; other ranges are cut and copied. */
            @Override
            public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
                int packed = packedBlock(from, to);
                if (packed >= 0) {
                    blocks[packed].unpackInto(blockIndex, from, into);
                } else {
                    into.fill(rows(blockIndex, from, to));
                }
            }

            @Override
            public void close() {}
        };
    }

    private RowBlock rows(int blockIndex, long from, long to) {
        if (from == to) {
            return RowBlock.empty(blockIndex, from, 0, nCols);
        }
        int packed = packedBlock(from, to);
        if (packed >= 0) {
            return blocks[packed].unpack(blockIndex, from);
        }
        int first = plan.blockOf(from);
        List<RowBlock> parts = new ArrayList<>();
        for (int b = first; b < plan.size() && plan.rowStart(b) < to; b++) {
            parts.add(blocks[b].unpack(b, plan.rowStart(b)));
        }
        return concat(blockIndex, from, to, parts);
    }

    /** The packed block whose rows are exactly {@code [from, to)}, or -1. */
    private int packedBlock(long from, long to) {
        if (from == to) {
            return -1;
        }
        int b = plan.blockOf(from);
        return plan.rowStart(b) == from && plan.rowEnd(b) == to ? b : -1;
    }

    /** Rows {@code [from, to)} cut out of consecutive blocks that cover them. */
    private RowBlock concat(int blockIndex, long from, long to, List<RowBlock> parts) {
        if (parts.stream().allMatch(p -> p.exact() == null)) {
            return cut(blockIndex, from, to, parts);
        }
        // stored values float32 does not hold: the parts as one block, whose stored values follow the cut
        RowBlock joined = RowBlock.stack(parts, 0, parts.get(0).rowStart(), nCols, dtype());
        return joined.moved(0f, (b, fill) -> cut(blockIndex, from, to, List.of(b)));
    }

    /** Rows {@code [from, to)} of {@code parts}, consecutive blocks that cover them, copied into one block. */
    private RowBlock cut(int blockIndex, long from, long to, List<RowBlock> parts) {
        int rows = (int) (to - from);
        int[] indptr = new int[rows + 1];
        int[] idx = new int[16];
        float[] val = new float[16];
        int out = 0;
        int row = 0;
        for (RowBlock p : parts) {
            int a = (int) Math.max(0, from - p.rowStart());
            int b = (int) Math.min(p.nRows(), to - p.rowStart());
            int[] ip = p.indptr();
            int n = ip[b] - ip[a];
            if (out + n > idx.length) {
                idx = Arrays.copyOf(idx, Math.max(out + n, 2 * idx.length));
                val = Arrays.copyOf(val, idx.length);
            }
            System.arraycopy(p.indices(), ip[a], idx, out, n);
            System.arraycopy(p.values(), ip[a], val, out, n);
            for (int r = a; r < b; r++) {
                indptr[row + 1] = indptr[row] + ip[r + 1] - ip[r];
                row++;
            }
            out += n;
        }
        return RowBlock.of(blockIndex, from, nCols, indptr, Arrays.copyOf(idx, out), Arrays.copyOf(val, out));
    }

    @Override
    public String describe() {
        return "PackedMatrix[" + nRows() + " x " + nCols + ", nnz " + nnz() + ", " + sizeInBytes() + " bytes]";
    }
}
