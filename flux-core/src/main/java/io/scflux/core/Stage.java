/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.function.Function;
import reactor.core.publisher.Flux;

/**
 * A step that maps one block to one block (normalize rows, log1p, select columns, scale). Consecutive stages fuse
 * with {@link #then} into one function applied per block: no extra Flux hop and no intermediate flux. A stage is
 * serializable (lambdas too), so that a source seen through it can be read in another JVM by an {@link Engine}.
 */
@FunctionalInterface
public interface Stage extends Function<RowBlock, RowBlock>, java.io.Serializable {

    /** Transforms one block; must not write into the arrays of its input. */
    @Override
    RowBlock apply(RowBlock block);

    /** This stage, then {@code next}, as one stage. */
    default Stage then(Stage next) {
        return block -> next.apply(apply(block));
    }

    /** Applies this stage to every block of {@code blocks}, in place in the same flux. */
    default Flux<RowBlock> on(Flux<RowBlock> blocks) {
        return blocks.map(this);
    }

    static Stage identity() {
        return block -> block;
    }
}
