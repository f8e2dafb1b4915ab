package io.scflux.io.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@code .h5ad} fixtures of flux-io's test resources (written by anndata and h5py; see
 * {@code flux-io/src/test/python}), for other modules' tests. Inside a jar a fixture is copied once to a temporary
 * file, since readers need a path.
 */
public final class TestFixtures {

    private static final ConcurrentMap<String, Path> COPIES = new ConcurrentHashMap<>();

    private TestFixtures() {
    }

    /** The path of fixture {@code name} (e.g. {@code synth-3k.int64.h5ad}). */
    public static Path path(String name) {
        return COPIES.computeIfAbsent(name, TestFixtures::locate);
    }

    private static Path locate(String name) {
        var url = TestFixtures.class.getResource("/fixtures/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no fixture " + name);
        }
        try {
            if ("file".equals(url.getProtocol())) {
                return Path.of(url.toURI());
            }
            Path copy = Files.createTempFile("scflux-fixture-", "-" + name);
            copy.toFile().deleteOnExit();
            try (InputStream in = url.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
