/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import io.scflux.samples.report.JsonLine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Flux;

/**
 * The rows of an obs frame as NDJSON lines ({@code {"index": ..., "col": value...}\n}), made one at a time as they
 * are requested: a client that reads slowly holds back the making, and only the lines in flight are in memory. Missing
 * and non-finite values are {@code null}.
 */
final class ObsRows {

    private ObsRows() {}

    /** {@code obs}'s rows with the columns {@code columns} (all when empty); unknown names are an InvalidField. */
    static Flux<String> of(Frame obs, List<String> columns) {
        List<String> names = columns.isEmpty() ? List.copyOf(obs.columns().keySet()) : columns;
        for (String name : names) {
            if (!obs.has(name)) {
                throw new InvalidField(
                        "columns",
                        "no obs column " + name + " (columns: "
                                + String.join(", ", obs.columns().keySet()) + ")");
            }
        }
        Column[] picked = names.stream().map(obs::column).toArray(Column[]::new);
        return Flux.range(0, obs.size()).map(i -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("index", obs.names().get(i));
            for (int c = 0; c < picked.length; c++) {
                row.put(names.get(c), picked[c].get(i));
            }
            return JsonLine.of(row) + "\n";
        });
    }
}
