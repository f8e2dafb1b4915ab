/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.ColumnMap;
import io.scflux.core.RowBlock;

/**
 * concat's re-indexing of a block's columns onto the output's, the kernel of a concatenation: a backend that keeps
 * blocks resident implements it to re-index them where they are ({@link io.scflux.core.Backend#kernel});
 * {@link ColumnMap#reindex} is the host's form, the reference.
 */
public interface ReindexKernel {

    /**
     * {@code block}'s columns re-indexed by {@code map} onto its {@link ColumnMap#nOut()} columns, as anndata's
     * {@code concat} places an input's columns: entries in dropped columns removed, {@code fill} at every column the
     * input lacks unless it is zero, each row sorted by column. A resident block is re-indexed where it is (and
     * consumed), a heap block on the heap; the result is on the same backend, the same bits as
     * {@link ColumnMap#reindex} gives on the host.
     *
     * @param block a block on this backend or on the heap
     * @param map where its columns go
     * @param fill the value at the columns the input lacks
     * @return the re-indexed block, on the same backend
     */
    RowBlock reindex(RowBlock block, ColumnMap map, float fill);
}
