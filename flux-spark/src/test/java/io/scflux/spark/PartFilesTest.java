/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.ForwardingSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.anndata.CsrMatrix;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part file keeps the values a block stores where float32 would change them: an int32 2147483647 and a float64
 * 0.1 read back from a part are the stored values, not their float32 roundings, and a block without them reads back
 * without them.
 */
class PartFilesTest {

    @TempDir
    Path tmp;

    @Test
    void storedValuesTravelThroughAPart() throws Exception {
        CsrMatrix.Builder b = CsrMatrix.builder(4);
        b.addRow(new int[] {0, 3}, new float[] {2147483647f, 1f});
        b.addRow(new int[] {1}, new float[] {16777217f});
        b.addRow(new int[] {}, new float[] {});
        b.addRow(new int[] {2}, new float[] {5f});
        CsrMatrix counts = b.build();
        int[] stored = {2147483647, 1, 16777217, 5};
        ForwardingSource withStored = new ForwardingSource(counts) {
            @Override
            public RowReader open() {
                RowReader under = delegate().open();
                return RowReader.over(under, (index, from, to) -> {
                    RowBlock block = under.read(index, from, to);
                    int first = from == 0 ? 0 : 3;
                    int[] mine = java.util.Arrays.copyOfRange(stored, first, first + block.nnz());
                    return from == 0 ? block.withExact(ExactValues.of(DType.INT32, mine)) : block;
                });
            }
        };
        BlockPlan plan = BlockPlan.uniform(4, 2, 4, PlanTarget.DEFAULT);
        Path part = PartFiles.part(tmp, "X", 0);
        long[] offsets = PartFiles.write(withStored, plan, new int[] {0, 2}, part, "a0");
        try (FileChannel in = FileChannel.open(part)) {
            RowBlock first = PartFiles.read(in, offsets[0], 0, part);
            assertEquals(DType.INT32, first.exact().dtype());
            assertArrayEquals(
                    new int[] {2147483647, 1, 16777217}, (int[]) first.exact().array());
            assertArrayEquals(new float[] {2147483647f, 1f, 16777217f}, first.values());
            RowBlock second = PartFiles.read(in, offsets[1], 1, part);
            assertNull(second.exact(), "a block whose floats are its values carries no stored values");
            assertArrayEquals(new float[] {5f}, second.values());
        }
    }
}
