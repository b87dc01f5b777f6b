import { fireEvent, render, screen } from '@testing-library/react';
import { defaultPartImage, PartImage } from '../../src/components/PartImage';

describe('PartImage', () => {
  it('shows the part’s picture, with the attributes it is given', () => {
    render(<PartImage src="https://img.example.com/lever.png" alt="Brake lever" width={48} loading="lazy" />);
    const img = screen.getByRole('img', { name: 'Brake lever' });
    expect(img).toHaveAttribute('src', 'https://img.example.com/lever.png');
    expect(img).toHaveAttribute('width', '48');
    expect(img).toHaveAttribute('loading', 'lazy');
  });

  it('shows our own picture for a part without one', () => {
    render(<PartImage src="" alt="Chain" />);
    expect(screen.getByRole('img', { name: 'Chain' })).toHaveAttribute('src', defaultPartImage);
  });

  it('falls back to our own picture once when the address is broken', () => {
    render(<PartImage src="https://img.example.com/missing.png" alt="Sprocket" />);
    const img = screen.getByRole('img', { name: 'Sprocket' });
    fireEvent.error(img);
    expect(img.getAttribute('src')).toMatch(/\/images\/parts\/default\.svg$/);
    // Our own picture failing too does not start a loop of retries.
    fireEvent.error(img);
    expect(img.getAttribute('src')).toMatch(/\/images\/parts\/default\.svg$/);
  });
});
