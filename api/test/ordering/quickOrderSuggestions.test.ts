import { nearEnough, sharedEnds } from '../../src/ordering/quickOrderSuggestions';

/** Issue 34: which near numbers quick order suggests for a number nobody carries (the rule, without a database). */
describe('near numbers', () => {
  it('count the characters shared at the start and the end, never more than the shorter number', () => {
    expect(sharedEnds('22201166000', '22201166001')).toBe(10); // the last digit changed
    expect(sharedEnds('X2201166000', '22201166000')).toBe(10); // the first changed
    expect(sharedEnds('2220166000', '22201166000')).toBe(10); // one dropped in the middle
    expect(sharedEnds('22210166000', '22201166000')).toBe(9); // two swapped
    expect(sharedEnds('22201', '22201166000')).toBe(5); // cut short
    expect(sharedEnds('AAAA', 'AAAAA')).toBe(4);
    expect(sharedEnds('ABC', 'XYZ')).toBe(0);
  });

  it('are suggested when they share at least half of what was typed, and 3 characters', () => {
    expect(nearEnough('22201166001', 6)).toBe(true);
    expect(nearEnough('22201166001', 5)).toBe(false);
    expect(nearEnough('AB1', 3)).toBe(true);
    expect(nearEnough('AB', 2)).toBe(false);
    expect(nearEnough('NOSUCHNUMBERATALL9Q9Q9Q', 11)).toBe(false);
  });
});
