import Foundation

/// The main `nginx.conf` a test's nginx runs under: one worker in the foreground (as root when the test runs as root), its pid,
/// error log and temporary files inside `directory`, no access log, and `http` (an include of the site under
/// test, or server blocks) inside its `http` block.
public enum NginxMainConfig {
    public static func text(directory: String, workerConnections: Int, http: String) -> String {
        """
        \(geteuid() == 0 ? "user root;" : "")
        daemon off;
        worker_processes 1;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log;
        events { worker_connections \(workerConnections); }
        http {
            access_log off;
            client_body_temp_path \(directory)/body;
            proxy_temp_path \(directory)/proxy;
            fastcgi_temp_path \(directory)/fastcgi;
            uwsgi_temp_path \(directory)/uwsgi;
            scgi_temp_path \(directory)/scgi;
        \(http)
        }
        """
    }
}
