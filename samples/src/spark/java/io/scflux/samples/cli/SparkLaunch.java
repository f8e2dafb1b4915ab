package io.scflux.samples.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The main class of {@code scflux-spark.jar}: runs {@link Scflux} with the jars of {@code spark-jars/} (beside
 * scflux.jar) on its class path, so that {@code --engine spark} works in local mode without a Spark installation,
 * while scflux.jar itself carries no Spark.
 */
public final class SparkLaunch {

    private SparkLaunch() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(SparkLaunch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path sparkJars = jar.resolveSibling("spark-jars");
        List<URL> urls = new ArrayList<>();
        urls.add(jar.toUri().toURL());
        try (Stream<Path> jars = Files.list(sparkJars)) {
            for (Path p : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(p.toUri().toURL());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("no Spark jars in " + sparkJars + " (built with scflux.jar by mvn package)",
                    e);
        }
        ClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        try {
            loader.loadClass(Scflux.class.getName()).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }
}
