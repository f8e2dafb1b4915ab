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
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The main class of {@code scflux-spark.jar} run with {@code java -jar}: runs {@link Scflux} with a Spark home's jars
 * on the class path ({@code $SPARK_HOME/jars}, else the Spark home the build made), so that {@code --engine spark}
 * works in local mode without spark-submit. The jar leaves out what Spark ships (jackson, netty, slf4j): Spark's
 * copies are the ones both run on.
 */
public final class SparkLaunch {

    private SparkLaunch() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(SparkLaunch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jars = sparkHome(jar).resolve("jars");
        List<URL> urls = new ArrayList<>();
        urls.add(jar.toUri().toURL());
        try (Stream<Path> all = Files.list(jars)) {
            for (Path p : all.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(p.toUri().toURL());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("no Spark jars in " + jars + ": set SPARK_HOME to a Spark 4.0 "
                    + "installation (or build with mvn -Pspark package, which makes one)", e);
        }
        ClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        try {
            loader.loadClass(Scflux.class.getName()).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    /** {@code $SPARK_HOME}, else the Spark home named in {@code jar}'s manifest (the one the build made). */
    private static Path sparkHome(Path jar) throws IOException {
        String home = System.getenv("SPARK_HOME");
        if (home != null && !home.isEmpty()) {
            return Path.of(home);
        }
        try (JarFile j = new JarFile(jar.toFile())) {
            String built = j.getManifest().getMainAttributes().getValue("Scflux-Spark-Home");
            if (built == null) {
                throw new IOException(jar + " names no Spark home: set SPARK_HOME");
            }
            return Path.of(built).normalize();
        }
    }
}
