/**
 * The back office decides what to show by the same declarations the API enforces: every route
 * office/src/access.ts lists carries exactly the access the server's OpenAPI document declares for
 * it (`x-duka-access`), and every screen is opened by a route in that list.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../office/src/access.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

type Json = Record<string, any>;

describe("the back office's access table", () => {
  let t: TestApp;
  let declared: Map<string, Json>;

  beforeAll(async () => {
    t = await createTestApp();
    const doc = (await t.request('GET', '/openapi.json')).body;
    declared = new Map(
      Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
        ['get', 'put', 'post', 'patch', 'delete']
          .filter((m) => item[m])
          .map((m) => [`${m.toUpperCase()} ${path}`, item[m]['x-duka-access']] as const),
      ),
    );
  });
  afterAll(() => t.close());

  it('names only routes the server has, each with the access the server declares', () => {
    const wrong = Object.entries(ROUTES).flatMap(([route, access]) => {
      if (!declared.has(route)) return [`${route}: no such route`];
      const server = declared.get(route)!;
      // A `password-change` route is any signed-in user's to call: the office signs in no other way.
      const level = server.level === 'password-change' ? 'bearer' : server.level;
      const theirs = { level, ...(server.permission && !server.when ? { permission: server.permission } : {}) };
      return JSON.stringify(theirs) === JSON.stringify(access)
        ? []
        : [`${route}: office ${JSON.stringify(access)}, server ${JSON.stringify(theirs)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('opens every screen by a route of the table', () => {
    // Read from the source: the screens' modules are browser code, loaded by the list on demand.
    const source = readFileSync(new URL('../../office/src/ui/screens.ts', import.meta.url), 'utf8');
    const routes = [...source.matchAll(/route: '([^']+)'/g)].map((m) => m[1]!);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((r) => !(r in ROUTES))).toEqual([]);
  });
});
