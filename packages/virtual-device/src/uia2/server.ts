/**
 * The UiAutomator2 server's HTTP API, as appium-uiautomator2-driver 8.x talks to it.
 * Reached only through `tcp:6790` streams while the instrumentation runs; it owns no port.
 * This file holds the HTTP side and the session's life; the routes live by family beside it
 * (sessionRoutes.ts, elementRoutes.ts, actionRoutes.ts), the errors in errors.ts.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ActionRoutes } from './actionRoutes.js';
import type { Uia2Device } from './device.js';
import { duplexPair } from './duplexPair.js';
import { ElementRoutes } from './elementRoutes.js';
import { GestureRoutes } from './gestureRoutes.js';
import { HttpError, unknownCommand } from './errors.js';
import { IdleWaits } from './idleWaits.js';
import { newSession, type Json, type Session } from './session.js';
import { SessionRoutes } from './sessionRoutes.js';
import { Uia2Settings } from './settings.js';

export type { Uia2Device } from './device.js';

export class Uia2Server {
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private readonly connections = new Set<Duplex>();
  private session: Session | null = null;
  private readonly settings = new Uia2Settings();
  private readonly routes: SessionRoutes;

  constructor(private readonly device: Uia2Device) {
    this.server.keepAliveTimeout = 0;
    const idle = new IdleWaits(device, this.settings);
    const elements = new ElementRoutes(device, idle);
    this.routes = new SessionRoutes(
      device,
      this.settings,
      idle,
      elements,
      new ActionRoutes(device),
      new GestureRoutes(device, elements, idle),
    );
    device.instrumentation.onEnd(() => {
      this.session = null;
      for (const c of this.connections) c.destroy();
      this.connections.clear();
    });
  }

  /** A stream into port 6790, or null while nothing listens there. */
  open(): Duplex | null {
    if (!this.device.instrumentation.isServing()) return null;
    const [client, server] = duplexPair();
    this.connections.add(server);
    server.on('close', () => this.connections.delete(server));
    this.server.emit('connection', server);
    return client;
  }

  /** The server process restarted (the `uia2-session-lost` fault): it serves on, knowing no session. */
  forgetSession(): void {
    this.session = null;
    this.device.log('fault', 'uia2 server restarted: the session is gone');
  }

  activeSessionCount(): number {
    return this.session ? 1 : 0;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const path =
      (req.url ?? '/')
        .split('?')[0]
        ?.replace(/^\/wd\/hub/, '')
        .replace(/\/+$/, '') || '/';
    const subject = `${method} ${path}`;
    const fault = this.device.requestFault(subject);
    if (fault === 'hang') {
      this.device.log('fault', `uia2 ${subject}: hung (injected)`);
      return;
    }
    if (fault > 0) await this.device.clock.sleep(fault);
    const injected = this.device.requestError(subject);
    let body: Json;
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      body = text ? (JSON.parse(text) as Json) : {};
    } catch {
      body = {};
    }
    await this.device.cost.spendUia2(method, path, body);
    let status = 200;
    let payload: unknown;
    try {
      // A gesture that holds the pointer (long_click) answers only once it is released.
      if (injected) throw new HttpError(injected.status, injected.error, injected.message);
      const value: unknown = await this.route(method, path, body);
      payload = { sessionId: this.session?.id ?? null, value: value === undefined ? null : value };
    } catch (e) {
      if (e instanceof HttpError) {
        status = e.status;
        payload = { value: { error: e.error, message: e.message, stacktrace: '' } };
      } else {
        status = 500;
        payload = { value: { error: 'unknown error', message: (e as Error).message, stacktrace: '' } };
      }
    }
    const json = JSON.stringify(payload);
    this.device.log('uia2', `${subject} -> ${status}${status >= 400 ? ` ${json.slice(0, 160)}` : ''}`);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(json),
    });
    res.end(json);
  }

  private route(method: string, path: string, body: Json): unknown {
    if (method === 'GET' && path === '/status') return this.status();
    if (method === 'GET' && path === '/sessions')
      return this.session ? [{ id: this.session.id, capabilities: this.session.capabilities }] : [];
    if (method === 'POST' && path === '/session') return this.createSession(body);
    const m = /^\/session\/([^/]+)(\/.*)?$/.exec(path);
    if (!m || m[1] === undefined) throw unknownCommand(method, path);
    const session = this.session;
    if (!session || session.id !== m[1])
      throw new HttpError(404, 'invalid session id', `A session is either terminated or not started (${m[1]})`);
    const rest = m[2] ?? '/';
    if (method === 'DELETE' && rest === '/') {
      this.session = null;
      // The real server stops its instrumentation right after answering.
      void this.device.clock.sleep(15).then(() => this.device.instrumentation.end('session-deleted'));
      return null;
    }
    return this.routes.handle(session, method, rest, body);
  }

  /** Status: ready, the message, and (server 7.6.0+) the build the installed server APK declares. */
  private status(): Json {
    const apk = this.device.system.installed.get('io.appium.uiautomator2.server');
    return {
      ready: true,
      message: 'UiAutomator2 Server is ready to accept commands',
      build: { version: apk?.versionName ?? '1.0', versionCode: apk?.versionCode ?? 1 },
    };
  }

  private createSession(body: Json): unknown {
    const caps = body.capabilities as { firstMatch?: Json[]; alwaysMatch?: Json } | undefined;
    const capabilities: Json = { ...(caps?.alwaysMatch ?? {}), ...(caps?.firstMatch?.[0] ?? {}) };
    // NewSession: Settings.resetForNewSession() before the session exists; Appium then applies `appium:settings`.
    this.settings.reset();
    this.session = newSession(capabilities);
    // NewSession answers with the request's own model: the capabilities as sent and the new id.
    return { capabilities: body.capabilities ?? null, sessionId: this.session.id };
  }
}
