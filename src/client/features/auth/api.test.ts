import { describe, expect, it } from 'vitest';
import { safeNextPath } from './api';

describe('safeNextPath', () => {
  it('keeps paths of this site only', () => {
    expect(safeNextPath('/edit/account/3?x=1')).toBe('/edit/account/3?x=1');
    expect(safeNextPath('//evil.example/')).toBeNull();
    expect(safeNextPath('/\\evil.example')).toBeNull();
    expect(safeNextPath('https://evil.example/')).toBeNull();
    expect(safeNextPath(null)).toBeNull();
  });
});
