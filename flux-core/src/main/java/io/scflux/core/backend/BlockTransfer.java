package io.scflux.core.backend;

import io.scflux.core.RowBlock;

/**
 * Moves a block from one backend to another: what a step does, and only then, when its inputs are on different
 * backends (anndata's array-API rule: pass arrays through, convert only when necessary, never silently).
 */
@FunctionalInterface
public interface BlockTransfer {

    /** {@code block}, which is on {@code from}, as a block on {@code to}. */
    RowBlock move(RowBlock block, Backend from, Backend to);

    /**
     * The transfers the host knows: none is needed between host sources, and a device backend brings its own; asked
     * to move a block between two backends, it fails naming them.
     */
    BlockTransfer HOST = (block, from, to) -> {
        throw new UnsupportedOperationException("no transfer from " + from.name() + " to " + to.name()
                + " is installed; the " + to.name() + " backend must provide one");
    };
}
