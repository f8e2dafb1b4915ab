/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A source that passes every question on to another one, for wrappers that change only how blocks are read (a cache,
 * a counter, a progress bar): they extend it and override {@link #open} and what else differs.
 */
public abstract class ForwardingSource implements BlockSource {

    private final BlockSource delegate;

    protected ForwardingSource(BlockSource delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The source questions are passed to. */
    protected final BlockSource delegate() {
        return delegate;
    }

    @Override
    public long nRows() {
        return delegate.nRows();
    }

    @Override
    public int nCols() {
        return delegate.nCols();
    }

    @Override
    public DType dtype() {
        return delegate.dtype();
    }

    @Override
    public boolean isDense() {
        return delegate.isDense();
    }

    @Override
    public @Nullable Object cacheKey() {
        return delegate.cacheKey();
    }

    @Override
    public Set<Path> files() {
        return delegate.files();
    }

    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        delegate.rowNnz(rowFrom, count, out);
    }

    @Override
    public BlockPlan plan(PlanTarget target) {
        return delegate.plan(target);
    }

    @Override
    public RowReader open() {
        return delegate.open();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}
