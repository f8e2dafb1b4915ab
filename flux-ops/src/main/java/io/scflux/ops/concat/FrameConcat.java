/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.PackedStrings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Dataframes stacked by rows as {@code pd.concat(frames, join=join)} stacks them: an inner join keeps the columns every
 * frame has, in the first frame's order; an outer join every column, in order of appearance, missing where a frame
 * lacks it. Each column is typed by {@link ColumnConcat}.
 */
final class FrameConcat {

    private FrameConcat() {}

    static Frame concat(List<Frame> frames, PackedStrings index, ConcatOptions.Join join, int[] lengths) {
        Collection<String> names;
        if (join == ConcatOptions.Join.INNER) {
            names = common(frames, f -> f.columns().keySet());
        } else {
            Set<String> all = new LinkedHashSet<>();
            frames.forEach(f -> all.addAll(f.columns().keySet()));
            names = all;
        }
        Frame out = new Frame(index, null);
        for (String name : names) {
            List<Column> parts = new ArrayList<>(frames.size());
            frames.forEach(f -> parts.add(f.has(name) ? f.column(name) : null));
            out.put(name, ColumnConcat.concat(parts, lengths));
        }
        return out;
    }

    /** The names every input has, in the first input's order. */
    static <T> List<String> common(List<T> inputs, Function<T, Set<String>> names) {
        Set<String> out = new LinkedHashSet<>(names.apply(inputs.get(0)));
        inputs.forEach(a -> out.retainAll(names.apply(a)));
        return List.copyOf(out);
    }
}
