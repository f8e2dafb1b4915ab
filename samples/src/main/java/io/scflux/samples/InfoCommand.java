package io.scflux.samples;

import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import io.scflux.io.FileMatrix;
import io.scflux.io.H5ad;
import io.scflux.io.MatrixInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scflux info}: what an {@code .h5ad} holds, like anndata's repr (shape, how X is stored, obs and var columns
 * with their types, the keys of obsm, varm, layers, obsp, varp and uns), or the same as one JSON object with the sum
 * of X, which streams the whole matrix.
 */
@Command(name = "info", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Prints what an .h5ad holds: shape, X encoding, dtype, nnz, index types and compression, obs "
                + "and var columns with their types, and the keys of obsm, varm, layers, obsp, varp and uns.",
            "With --json, prints one JSON object that also has x_sum, the sum of all X values (this reads all of X; "
                + "the sum does not depend on --threads)."})
final class InfoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The .h5ad file.")
    private Path file;

    @Option(names = "--json", description = "Print one JSON object, with x_sum.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        Scflux global = Scflux.of(spec);
        PlanTarget target = global.planTarget();
        Execution execution = global.execution();
        AnnData data = global.read(file);
        PrintWriter out = spec.commandLine().getOut();
        BlockSource x = data.x();
        if (json) {
            Map<String, Object> report = report(data);
            if (x != null) {
                BlockSource tracked = global.progress(spec.commandLine().getErr()).track(global.cache(false).cached(x));
                report.put("x_sum", Totals.of(tracked, tracked.plan(target), execution).sum());
            } else {
                report.put("x_sum", null);
            }
            out.println(Json.write(report));
        } else {
            out.print(text(data));
        }
        out.flush();
        global.printStats(spec.commandLine().getErr(), x == null ? 0 : x.plan(target).size(),
                x instanceof FileMatrix m ? m.stats().blocksRead() : 0);
        return 0;
    }

    /** The JSON model of {@code data}, without the sum. */
    static Map<String, Object> report(AnnData data) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("n_obs", data.nObs());
        r.put("n_vars", data.nVars());
        r.put("x", data.x() == null ? null : matrix(data.x()));
        r.put("obs", columns(data.obs()));
        r.put("var", columns(data.var()));
        r.put("obsm", List.copyOf(data.obsm().keySet()));
        r.put("varm", List.copyOf(data.varm().keySet()));
        r.put("layers", List.copyOf(data.layers().keySet()));
        r.put("obsp", List.copyOf(data.obsp().keySet()));
        r.put("varp", List.copyOf(data.varp().keySet()));
        r.put("uns", List.copyOf(data.uns().keySet()));
        if (data.raw() != null) {
            Map<String, Object> raw = new LinkedHashMap<>();
            raw.put("n_vars", data.raw().var().size());
            raw.put("x", matrix(data.raw().x()));
            raw.put("var", columns(data.raw().var()));
            r.put("raw", raw);
        } else {
            r.put("raw", null);
        }
        return r;
    }

    private static Map<String, Object> matrix(BlockSource x) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (x instanceof FileMatrix f) {
            MatrixInfo info = f.info();
            m.put("encoding", info.encoding());
            m.put("dtype", info.dtype().numpyName());
            m.put("nnz", info.nnz());
            m.put("indptr_dtype", info.indptrDtype() == null ? null : info.indptrDtype().numpyName());
            m.put("indices_dtype", info.indicesDtype() == null ? null : info.indicesDtype().numpyName());
            m.put("compression", info.compression());
            m.put("chunked", info.chunked());
        } else {
            m.put("encoding", null);
            m.put("dtype", x.dtype().numpyName());
        }
        return m;
    }

    private static Map<String, Object> columns(Frame frame) {
        Map<String, Object> m = new LinkedHashMap<>();
        frame.columns().forEach((name, column) -> m.put(name, typeOf(column)));
        return m;
    }

    /** The pandas dtype of a column, with the number of categories of a categorical: {@code category(8)}. */
    static String typeOf(Column column) {
        return column instanceof CategoricalColumn c ? "category(" + c.categories().size() + ")" : column.typeName();
    }

    /** The report as anndata's repr lays it out: one line per non-empty part. */
    @SuppressWarnings("unchecked")
    static String text(AnnData data) {
        Map<String, Object> r = report(data);
        StringBuilder sb = new StringBuilder("AnnData object with n_obs x n_vars = ").append(data.nObs()).append(" x ")
                .append(data.nVars()).append('\n');
        sb.append("    X: ").append(r.get("x") == null ? "none" : matrixLine((Map<String, Object>) r.get("x")))
                .append('\n');
        for (String part : List.of("obs", "var", "uns", "obsm", "varm", "layers", "obsp", "varp")) {
            Object v = r.get(part);
            List<String> items = new ArrayList<>();
            if (v instanceof Map<?, ?> columns) {
                columns.forEach((k, type) -> items.add("'" + k + "' " + type));
            } else {
                ((List<String>) v).forEach(k -> items.add("'" + k + "'"));
            }
            if (!items.isEmpty()) {
                sb.append("    ").append(part).append(": ").append(String.join(", ", items)).append('\n');
            }
        }
        if (r.get("raw") instanceof Map<?, ?> raw) {
            sb.append("    raw: n_vars = ").append(raw.get("n_vars")).append(", X: ")
                    .append(matrixLine((Map<String, Object>) raw.get("x"))).append('\n');
        }
        return sb.toString();
    }

    private static String matrixLine(Map<String, Object> x) {
        StringBuilder sb = new StringBuilder();
        sb.append(x.get("encoding") == null ? "matrix" : x.get("encoding")).append(' ').append(x.get("dtype"));
        if (x.containsKey("nnz")) {
            sb.append(", nnz ").append(x.get("nnz"));
        }
        if (x.get("indptr_dtype") != null) {
            sb.append(", indptr ").append(x.get("indptr_dtype")).append(", indices ").append(x.get("indices_dtype"));
        }
        if (x.containsKey("compression")) {
            sb.append(", compression ").append(x.get("compression"))
                    .append(Boolean.TRUE.equals(x.get("chunked")) ? " (chunked)" : " (contiguous)");
        }
        return sb.toString();
    }
}
