package io.scflux.samples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import java.util.List;
import reactor.core.publisher.Flux;

/**
 * The rows of an obs frame as NDJSON lines ({@code {"index": ..., "col": value...}\n}), made one at a time as they
 * are requested: a client that reads slowly holds back the making, and only the lines in flight are in memory.
 */
final class ObsRows {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ObsRows() {
    }

    /** {@code obs}'s rows with the columns {@code columns} (all when empty); unknown names are an InvalidField. */
    static Flux<String> of(Frame obs, List<String> columns) {
        List<String> names = columns.isEmpty() ? List.copyOf(obs.columns().keySet()) : columns;
        for (String name : names) {
            if (!obs.has(name)) {
                throw new InvalidField("columns", "no obs column " + name + " (columns: "
                        + String.join(", ", obs.columns().keySet()) + ")");
            }
        }
        Column[] picked = names.stream().map(obs::column).toArray(Column[]::new);
        return Flux.range(0, obs.size()).map(i -> {
            ObjectNode row = JSON.createObjectNode().put("index", obs.names().get(i));
            for (int c = 0; c < picked.length; c++) {
                row.set(names.get(c), JSON.valueToTree(picked[c].get(i)));
            }
            return row + "\n";
        });
    }
}
