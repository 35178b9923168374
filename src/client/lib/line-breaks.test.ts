import { describe, expect, it } from 'vitest';
import { splitAtFirstLineBreak } from './line-breaks';

describe('splitAtFirstLineBreak', () => {
  it('keeps the first line break and folds the others into spaces', () => {
    expect(splitAtFirstLineBreak('first\nsecond\nthird')).toEqual(['first', 'second third']);
    expect(splitAtFirstLineBreak('a\r\nb \n c')).toEqual(['a', 'b c']);
  });

  it('leaves a message without line breaks alone', () => {
    expect(splitAtFirstLineBreak('Email is invalid.')).toEqual(['Email is invalid.', null]);
  });
});
