/**
 * A real nginx (Debian's, which .ci/run installs) as the load balancer in front of several server
 * instances: round robin, no stickiness, websockets upgraded, and a request never sent to a second
 * instance once the first may have acted on it (nginx's default for POST), as behind any balancer.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { startDaemon } from './daemon.js';

export const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export interface LoadBalancer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startNginx(upstreamPorts: number[]): Promise<LoadBalancer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'duka-nginx-'));
  chmodSync(dir, 0o777);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub), { mode: 0o777 });
  const port = await freePort();
  const conf = `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 50m;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream duka {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://duka;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_read_timeout 120s;
      proxy_buffering off;
    }
  }
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const daemon = await startDaemon(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], port, 'SIGQUIT');
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
