import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { carriesModernClaim, MODERN_PROTOCOL_META_KEY } from '../../../src/transports/stdio/stdioRevisions.js';

describe('the stdio revision router', () => {
  it('knows the 2026-07-28 claim by the v2 SDK’s own key, written out so start-up does not load that SDK', () => {
    expect(MODERN_PROTOCOL_META_KEY).toBe(PROTOCOL_VERSION_META_KEY);
  });

  it('tells a 2026-07-28 request from a 2025-era one by the claim in its _meta', () => {
    const modern = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'server/discover',
      params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } },
    };
    const old = { jsonrpc: '2.0' as const, id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
    expect(carriesModernClaim(modern)).toBe(true);
    expect(carriesModernClaim(old)).toBe(false);
    expect(carriesModernClaim({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe(false);
  });
});
