#!/usr/bin/env bash
# Builds the Android client with plain javac (the library jar, and the Android glue against stubs), then runs its
# JUnit 5 suite. The tests against a real registry run when ROUTEREG_BIN names the routereg executable (as
# `make test` sets it); they start it on a fresh temporary data directory and stop it, also on failure.
#   Clients/android/scripts/test.sh            build and test
#   Clients/android/scripts/test.sh --build    build the jars only (build/*.jar)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(cd ../.. && pwd)

# Debian's packages (scripts/bootstrap installs them): org.json as Android ships it, and JUnit 5.
find_jar() { dpkg -L "$1" 2>/dev/null | grep -E "/$2\$" | head -1; }
json_jar=$(find_jar libandroid-json-java 'com\.android\.json\.jar')
junit_jar=$(find_jar junit5 'junit-platform-console-standalone\.jar')
if [ -z "$json_jar" ] || [ -z "$junit_jar" ] || ! command -v javac >/dev/null; then
    echo "android client: needs openjdk-17-jdk-headless, libandroid-json-java and junit5 (run scripts/bootstrap test)" >&2
    exit 1
fi

rm -rf build
mkdir -p build/main build/api-check build/stubs build/android build/test
main_sources=$(find src/main/java -name '*.java')
javac --release 17 -Xlint:all -Werror -d build/main -cp "$json_jar" $main_sources
# The same sources against Java 8's class library: Android (API 24+) offers that surface, not Java 17's.
javac --release 8 -Xlint:all,-options -Werror -d build/api-check -cp "$json_jar" $main_sources
jar --create --file build/routeregistry-client.jar -C build/main .

# The Android glue, compiled with small stand-ins of the few framework classes it uses; only the glue is shipped.
javac --release 17 -Xlint:all -Werror -d build/android -cp "build/main:$json_jar" \
    $(find src/stubs/java src/android/java -name '*.java')
mv build/android/android build/stubs/
jar --create --file build/routeregistry-client-android.jar -C build/android .
echo "android client: built build/routeregistry-client.jar and build/routeregistry-client-android.jar"
[ "${1:-}" = "--build" ] && exit 0

javac --release 17 -Xlint:all,-processing -Werror -d build/test -cp "build/main:build/android:build/stubs:$json_jar:$junit_jar" \
    $(find src/test/java -name '*.java')
filter=()
if [ -z "${ROUTEREG_BIN:-}" ]; then
    echo "android client: ROUTEREG_BIN is not set: the tests against a real registry (tag 'registry') are skipped"
    filter=(--exclude-tag registry)
fi
# JAVA_TEST_OPTS: extra JVM flags, e.g. -Drouteregistry.seed=N to replay a differential run.
exec java -Drouteregistry.repo="$repo" ${JAVA_TEST_OPTS:-} -jar "$junit_jar" \
    --class-path "build/test:build/main:build/android:build/stubs:$json_jar" --scan-class-path build/test \
    --disable-banner --disable-ansi-colors --details=summary --fail-if-no-tests "${filter[@]}"
