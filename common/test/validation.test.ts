import {
  bangladeshiPhone,
  check,
  contactSchema,
  dollarsToCents,
  formatDollars,
  loginSchema,
  messages,
  partSchema,
  profileSchema,
  purchaseSchema,
  reviewSchema,
  signupSchema,
  truncate,
  truncation,
  type FieldErrors,
} from '../src';
import type * as yup from 'yup';

/** The per-field messages `check` answers, or {} when the input passes. */
function errorsOf(schema: yup.AnyObjectSchema, input: unknown): FieldErrors {
  const result = check(schema, input);
  return result.ok ? {} : result.errors;
}

const validLogin = { email: 'rider@example.com', password: 'secret1' };
const validSignup = { ...validLogin, name: 'Rider One' };
const stock = { minOrder: 10, available: 50 };
const validPurchase = { name: 'Rider One', phone: '01712345678', orderAmount: 10, address: '' };
const validPart = {
  name: 'Chain Kit',
  price: 12.5,
  image: '',
  minOrder: 5,
  available: 100,
  description: 'A 428 chain with sprockets.',
};

describe('the messages of spec §5 are kept word for word', () => {
  it.each([
    [messages.emailRequired, 'Email is required'],
    [messages.emailInvalid, 'Provide a valid email'],
    [messages.passwordRequired, 'Password is required'],
    [messages.passwordTooShort, 'Must be 6 characters or longer'],
    [messages.nameRequired, 'Name is required'],
    [messages.nameInvalid, 'Provide a valid name'],
    [messages.phoneRequired, 'Phone is required'],
    [messages.phoneTooShort, 'Must be 11 characters'],
    [messages.phoneNotBangladeshi, 'Provide a Bangladeshi number'],
    [messages.orderAmountRequired, "Order can't be empty"],
    [messages.orderAmountBelowMin(10), 'Must order more than 10 items'],
    [messages.orderAmountAboveAvailable(7), 'Only 7 items available'],
    [messages.partNameRequired, "The part's name is required"],
    [messages.priceRequired, 'Price is required'],
    [messages.minOrderRequired, "Order can't be empty"],
    [messages.availableRequired, "Available amount can't be empty"],
    [messages.descriptionRequired, "Order can't be empty"],
    [messages.reviewRequired, "Review can't be empty"],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('email (login, signup, purchase)', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['only spaces', '   '],
  ])("a %s email answers 'Email is required'", (_label, email) => {
    expect(errorsOf(loginSchema, { ...validLogin, email })).toEqual({ email: 'Email is required' });
    expect(errorsOf(signupSchema, { ...validSignup, email })).toMatchObject({ email: 'Email is required' });
  });

  it.each(['rider', 'rider@', '@example.com', 'rider example@mail.com', 'rider@@example.com'])(
    "'%s' answers 'Provide a valid email'",
    (email) => {
      expect(errorsOf(loginSchema, { ...validLogin, email })).toEqual({ email: 'Provide a valid email' });
      expect(errorsOf(signupSchema, { ...validSignup, email })).toEqual({ email: 'Provide a valid email' });
    },
  );

  it.each(['foo@bar', 'rider@localhost', 'rider@example.', 'rider@.com'])(
    "'%s' (no dot in the domain: no mail reaches it) answers 'Provide a valid email'",
    (email) => {
      expect(errorsOf(loginSchema, { ...validLogin, email })).toEqual({ email: 'Provide a valid email' });
      expect(errorsOf(signupSchema, { ...validSignup, email })).toEqual({ email: 'Provide a valid email' });
    },
  );

  it('a standard email passes (surrounding spaces are trimmed)', () => {
    const result = check(loginSchema, { ...validLogin, email: '  rider@example.com ' });
    expect(result).toEqual({ ok: true, value: { email: 'rider@example.com', password: 'secret1' } });
  });
});

describe('password', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
  ])("a %s password answers 'Password is required'", (_label, password) => {
    expect(errorsOf(loginSchema, { ...validLogin, password })).toEqual({ password: 'Password is required' });
  });

  it.each(['a', '12345', 'abcde'])("'%s' (under 6 characters) answers 'Must be 6 characters or longer'", (password) => {
    expect(errorsOf(loginSchema, { ...validLogin, password })).toEqual({
      password: 'Must be 6 characters or longer',
    });
  });

  it('exactly 6 characters is enough', () => {
    expect(check(loginSchema, { ...validLogin, password: '123456' }).ok).toBe(true);
  });
});

describe('signup name', () => {
  it.each([undefined, '', '   '])("%p answers 'Name is required'", (name) => {
    expect(errorsOf(signupSchema, { ...validSignup, name })).toEqual({ name: 'Name is required' });
  });

  it.each(['Rider One', 'José Ñúñez', 'Zoë Brontë', "Sinéad O'Connor", 'Smith, Jr.', 'Anne-Marie', 'Müller'])(
    "'%s' is a valid name (letters incl. accented, space, apostrophe, comma, hyphen, period)",
    (name) => {
      expect(errorsOf(signupSchema, { ...validSignup, name })).toEqual({});
    },
  );

  it.each(['R2D2', 'rider@home', 'Rider_One', 'Rider!', 'Ride <script>', 'Rider#1'])(
    "'%s' answers 'Provide a valid name'",
    (name) => {
      expect(errorsOf(signupSchema, { ...validSignup, name })).toEqual({ name: 'Provide a valid name' });
    },
  );

  it('reports every failing field at once, each with its first message', () => {
    expect(errorsOf(signupSchema, { email: '', password: '', name: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
      name: 'Name is required',
    });
  });
});

describe('purchase form', () => {
  const purchase = purchaseSchema(stock);

  it('a complete purchase passes and the address is not required', () => {
    const result = check(purchase, { name: 'Rider One', phone: '01712345678', orderAmount: 10 });
    expect(result.ok).toBe(true);
  });

  it.each([undefined, '', '  '])("a purchase name %p answers 'Name is required'", (name) => {
    expect(errorsOf(purchase, { ...validPurchase, name })).toEqual({ name: 'Name is required' });
  });

  it('any non-empty purchase name is accepted (no letters-only rule)', () => {
    expect(errorsOf(purchase, { ...validPurchase, name: 'R2D2 & Co #7' })).toEqual({});
  });

  describe('Bangladeshi phone', () => {
    it.each([undefined, '', '   '])("%p answers 'Phone is required'", (phone) => {
      expect(errorsOf(purchase, { ...validPurchase, phone })).toEqual({ phone: 'Phone is required' });
    });

    it.each(['0171234567', '017', '+88017'])("'%s' (under 11 characters) answers 'Must be 11 characters'", (phone) => {
      expect(errorsOf(purchase, { ...validPurchase, phone })).toEqual({ phone: 'Must be 11 characters' });
    });

    it.each([
      '01212345678', // 012: the third digit must be 3-9
      '01012345678',
      '02712345678', // must start 01
      '12345678901',
      '017123456789', // one digit too many
      '+8701712345678', // +87 is not Bangladesh
      '008701712345678',
      '+88 01712345678', // no spaces
      '0171234567a',
      '880171234567',
    ])("'%s' answers 'Provide a Bangladeshi number'", (phone) => {
      expect(errorsOf(purchase, { ...validPurchase, phone })).toEqual({ phone: 'Provide a Bangladeshi number' });
    });

    it.each([
      '01312345678',
      '01412345678',
      '01512345678',
      '01612345678',
      '01712345678',
      '01812345678',
      '01912345678',
      '+8801712345678',
      '008801712345678',
      ' 01712345678 ',
    ])("'%s' is accepted", (phone) => {
      expect(errorsOf(purchase, { ...validPurchase, phone })).toEqual({});
    });

    it('the pattern allows only the optional +88 / 0088 prefix, 01, a digit 3-9 and 8 digits', () => {
      expect(bangladeshiPhone.test('01912345678')).toBe(true);
      expect(bangladeshiPhone.test('+8801912345678')).toBe(true);
      expect(bangladeshiPhone.test('008801912345678')).toBe(true);
      expect(bangladeshiPhone.test('8801912345678')).toBe(false);
      expect(bangladeshiPhone.test('x01912345678')).toBe(false);
      expect(bangladeshiPhone.test('01912345678x')).toBe(false);
    });
  });

  describe('order amount against the part (minOrder 10, available 50)', () => {
    it.each([undefined, null, '', 'many'])('%p answers "Order can\'t be empty"', (orderAmount) => {
      expect(errorsOf(purchase, { ...validPurchase, orderAmount })).toEqual({ orderAmount: "Order can't be empty" });
    });

    it.each([0, 1, 9])("%p answers 'Must order more than 10 items'", (orderAmount) => {
      expect(errorsOf(purchase, { ...validPurchase, orderAmount })).toEqual({
        orderAmount: 'Must order more than 10 items',
      });
    });

    it.each([51, 100, 1_000_000])("%p answers 'Only 50 items available'", (orderAmount) => {
      expect(errorsOf(purchase, { ...validPurchase, orderAmount })).toEqual({
        orderAmount: 'Only 50 items available',
      });
    });

    it.each([10, 25, 50, '20'])('%p (minOrder <= amount <= available) is accepted', (orderAmount) => {
      const result = check(purchase, { ...validPurchase, orderAmount });
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.value.orderAmount).toBe(Number(orderAmount));
    });

    it('a fractional amount is refused', () => {
      expect(errorsOf(purchase, { ...validPurchase, orderAmount: 12.5 })).toEqual({
        orderAmount: 'Must be a whole number',
      });
    });

    it('the messages follow the part: other minOrder and available figures appear in them', () => {
      const other = purchaseSchema({ minOrder: 3, available: 4 });
      expect(errorsOf(other, { ...validPurchase, orderAmount: 2 })).toEqual({
        orderAmount: 'Must order more than 3 items',
      });
      expect(errorsOf(other, { ...validPurchase, orderAmount: 5 })).toEqual({ orderAmount: 'Only 4 items available' });
    });

    it('with the unit price known, an order must fit one card payment: the message says how many fit', () => {
      const dear = purchaseSchema({ minOrder: 1, available: 1_000_000, priceCents: 100_000_000 - 1 });
      expect(errorsOf(dear, { ...validPurchase, orderAmount: 1 })).toEqual({});
      expect(errorsOf(dear, { ...validPurchase, orderAmount: 2 })).toEqual({
        orderAmount: 'An order can cost at most $999,999.99, the most one card payment can be: order at most 1 item',
      });
      const cheap = purchaseSchema({ minOrder: 1, available: 1_000_000, priceCents: 150 });
      // 666,666 x 150 cents = 99,999,900 fits; one more is 100,000,050.
      expect(errorsOf(cheap, { ...validPurchase, orderAmount: 666_666 })).toEqual({});
      expect(errorsOf(cheap, { ...validPurchase, orderAmount: 666_667 })).toEqual({
        orderAmount:
          'An order can cost at most $999,999.99, the most one card payment can be: order at most 666666 items',
      });
    });

    it('an amount above the quantity bound is refused even with stock to match', () => {
      const huge = purchaseSchema({ minOrder: 1, available: 5_000_000 });
      expect(errorsOf(huge, { ...validPurchase, orderAmount: 1_000_001 })).toEqual({
        orderAmount: 'Must be 1000000 or less',
      });
    });

    it('with no stock left every amount is refused', () => {
      const soldOut = purchaseSchema({ minOrder: 1, available: 0 });
      expect(errorsOf(soldOut, { ...validPurchase, orderAmount: 1 })).toEqual({
        orderAmount: 'Only 0 items available',
      });
    });
  });
});

describe('part form', () => {
  it('a complete part passes and the image is not required', () => {
    expect(check(partSchema, validPart).ok).toBe(true);
    const { image: _image, ...withoutImage } = validPart;
    expect(check(partSchema, withoutImage).ok).toBe(true);
  });

  it.each(['https://images.example.test/pad.jpg', 'http://example.com/pad.png', '/images/parts/brake-pad.svg'])(
    'the image %p is accepted',
    (image) => {
      expect(errorsOf(partSchema, { ...validPart, image })).toEqual({});
    },
  );

  it.each([
    'javascript:alert(1)',
    'data:image/svg+xml;base64,PHN2Zz4=',
    '//evil.example/track.png',
    'ftp://example.com/pad.png',
    '/api/users',
    '/images/../api/users',
    '/images/parts/../../api/users',
    '/images/./x.png',
    '/images//x.png',
    '/images/',
  ])('the image %p is refused', (image) => {
    expect(errorsOf(partSchema, { ...validPart, image })).toEqual({ image: messages.imageUrlInvalid });
  });

  it.each([
    ['name', "The part's name is required"],
    ['price', 'Price is required'],
    ['minOrder', "Order can't be empty"],
    ['available', "Available amount can't be empty"],
    ['description', "Order can't be empty"],
  ])("a missing %s answers '%s'", (field, message) => {
    const { [field as keyof typeof validPart]: _omitted, ...rest } = validPart;
    expect(errorsOf(partSchema, rest)).toEqual({ [field]: message });
  });

  it.each([
    ['name', ''],
    ['price', ''],
    ['minOrder', ''],
    ['available', ''],
    ['description', '  '],
  ])('an empty %s is refused with its required message', (field, value) => {
    const errors = errorsOf(partSchema, { ...validPart, [field]: value });
    expect(Object.keys(errors)).toEqual([field]);
  });

  it('every empty field is reported together', () => {
    expect(errorsOf(partSchema, {})).toEqual({
      name: "The part's name is required",
      price: 'Price is required',
      minOrder: "Order can't be empty",
      available: "Available amount can't be empty",
      description: "Order can't be empty",
    });
  });

  it('refuses a negative price, a minOrder below 1 and a negative stock', () => {
    expect(errorsOf(partSchema, { ...validPart, price: -1 })).toEqual({ price: "Price can't be negative" });
    expect(errorsOf(partSchema, { ...validPart, minOrder: 0 })).toEqual({
      minOrder: 'Minimum order must be at least 1',
    });
    expect(errorsOf(partSchema, { ...validPart, available: -1 })).toEqual({
      available: "Available amount can't be negative",
    });
  });

  it('refuses a minimum order above the available stock (nobody could ever order it), with the stock in the message', () => {
    expect(errorsOf(partSchema, { ...validPart, minOrder: 101, available: 100 })).toEqual({
      minOrder: "Minimum order can't be more than the available parts (100): nobody could order it",
    });
    expect(errorsOf(partSchema, { ...validPart, minOrder: 5, available: 0 })).toEqual({
      minOrder: "Minimum order can't be more than the available parts (0): nobody could order it",
    });
    expect(errorsOf(partSchema, { ...validPart, minOrder: 100, available: 100 })).toEqual({});
  });

  describe('prices fit one card payment (Stripe: at most 99,999,999 cents)', () => {
    it.each([0, 0.004, -0])('a price of %p (less than a cent) is refused: nothing is sold for $0', (price) => {
      expect(errorsOf(partSchema, { ...validPart, price })).toEqual({ price: 'Price must be at least $0.01' });
    });

    it.each([0.005, 0.01, 999_999.99])('a price of %p is accepted', (price) => {
      expect(errorsOf(partSchema, { ...validPart, price, minOrder: 1 })).toEqual({});
    });

    it.each([999_999.995, 1_000_000, 1e21])('a price of %p is refused with the limit in the message', (price) => {
      expect(errorsOf(partSchema, { ...validPart, price })).toEqual({
        price: 'Price must be $999,999.99 or less, the most one card payment can be',
      });
    });

    it('a minimum order that would cost more than one card payment is refused (the part could never be sold)', () => {
      expect(errorsOf(partSchema, { ...validPart, price: 1000, minOrder: 1000, available: 1000 })).toEqual({
        minOrder: 'At this price the minimum order would cost more than $999,999.99, the most one card payment can be',
      });
      expect(errorsOf(partSchema, { ...validPart, price: 1000, minOrder: 999, available: 999 })).toEqual({});
      expect(errorsOf(partSchema, { ...validPart, price: 999_999.99, minOrder: 1 })).toEqual({});
    });
  });
});

describe('review', () => {
  it.each([undefined, '', '   \n '])('%p answers "Review can\'t be empty"', (text) => {
    expect(errorsOf(reviewSchema, { text })).toEqual({ text: "Review can't be empty" });
  });

  it('any text is a review, trimmed', () => {
    expect(check(reviewSchema, { text: '  Great pads!  ' })).toEqual({ ok: true, value: { text: 'Great pads!' } });
  });
});

describe('contact form (validated, although the spec said it was not)', () => {
  it('needs names, an email and a message; the phone is optional', () => {
    expect(errorsOf(contactSchema, {})).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      message: 'Message is required',
    });
    expect(
      errorsOf(contactSchema, { firstName: 'A', lastName: 'B', email: 'a@example.com', message: 'Hello' }),
    ).toEqual({});
  });
});

describe('profile (no rules in the spec, but addresses a browser may load or open safely)', () => {
  it.each([
    'https://lh3.googleusercontent.com/a/photo.jpg',
    'http://example.com/me.png',
    '/images/avatars/default.svg',
    '',
  ])('the avatar %p is accepted', (avatar) => {
    expect(errorsOf(profileSchema, { avatar })).toEqual({});
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(document.cookie)',
    'data:image/svg+xml;base64,PHN2Zz4=',
    '//evil.example/track.png',
    'ftp://example.com/me.png',
    '/api/users',
    '../images/x.png',
    '/images/../api/users',
    'https://exa mple.com/x.png',
  ])('the avatar %p is refused', (avatar) => {
    expect(errorsOf(profileSchema, { avatar })).toEqual({ avatar: messages.avatarUrlInvalid });
  });

  it('LinkedIn must be an http(s) address', () => {
    expect(errorsOf(profileSchema, { linkedIn: 'https://www.linkedin.com/in/rider' })).toEqual({});
    expect(errorsOf(profileSchema, { linkedIn: 'javascript:alert(1)' })).toEqual({ linkedIn: messages.linkUrlInvalid });
    expect(errorsOf(profileSchema, { linkedIn: '/images/x.svg' })).toEqual({ linkedIn: messages.linkUrlInvalid });
  });
});

describe('check()', () => {
  it('drops fields the schema does not know', () => {
    const result = check(reviewSchema, { text: 'Good', admin: true });
    expect(result).toEqual({ ok: true, value: { text: 'Good' } });
  });
});

describe('truncate()', () => {
  it('leaves text up to the length whole', () => {
    expect(truncate('Brake pads', 40)).toBe('Brake pads');
    expect(truncate('x'.repeat(40), 40)).toBe('x'.repeat(40));
    expect(truncate('', 20)).toBe('');
  });

  it("cuts longer text to the length and marks the cut with '...'", () => {
    expect(truncate('x'.repeat(41), 40)).toBe(`${'x'.repeat(40)}...`);
    expect(truncate('Heavy Duty Motorcycle Chain Kit 428H', 20)).toBe('Heavy Duty Motorcycl...');
  });

  it('uses the lengths of spec §9', () => {
    expect(truncation).toEqual({ cardName: 40, cardDescription: 70, orderTableName: 30, partsTableName: 20 });
    const name = 'A'.repeat(100);
    expect(truncate(name, truncation.cardName)).toHaveLength(43);
    expect(truncate(name, truncation.cardDescription)).toHaveLength(73);
    expect(truncate(name, truncation.orderTableName)).toHaveLength(33);
    expect(truncate(name, truncation.partsTableName)).toHaveLength(23);
  });
});

describe('dollarsToCents()', () => {
  it.each([
    [12.5, 1250],
    [0.005, 1],
    [-0.005, -1],
    [1.005, 101],
    [-1.005, -101],
    [2.675, 268],
    [-150.505, -15051],
    [0.1 + 0.2, 30],
    [999_999.99, 99_999_999],
    [999_999.995, 100_000_000],
    [0, 0],
  ])('%p dollars are %p cents (half away from zero)', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });
});

describe('formatDollars()', () => {
  it("shows a '$' prefix and two decimals", () => {
    expect(formatDollars(12.5)).toBe('$12.50');
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(8.9)).toBe('$8.90');
  });

  it('separates thousands and rounds to cents', () => {
    expect(formatDollars(1234.5)).toBe('$1,234.50');
    expect(formatDollars(1_000_000)).toBe('$1,000,000.00');
    expect(formatDollars(0.125)).toBe('$0.13');
  });
});
