import { act, fireEvent, render, screen } from '@testing-library/react';
import { toast } from 'react-hot-toast/headless';
import { Toasts, toastDuration } from '../../src/components/Toasts';

// jsdom has no PointerEvent; a MouseEvent carries the clientX the drag reads.
if (!('PointerEvent' in window)) {
  Object.assign(window, { PointerEvent: class PointerEvent extends MouseEvent {} });
}

describe('toasts', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    toast.remove();
  });
  afterEach(() => jest.useRealTimers());

  it('close after 5000 ms', () => {
    render(<Toasts />);
    act(() => void toast.success('Saved'));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(toastDuration - 500));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1500));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(toastDuration).toBe(5000);
  });

  it('pause while the window has lost focus and while hovered', () => {
    render(<Toasts />);
    act(() => void toast('Paused'));
    act(() => void window.dispatchEvent(new Event('blur')));
    act(() => jest.advanceTimersByTime(8000));
    expect(screen.getByText('Paused')).toBeInTheDocument();
    act(() => void window.dispatchEvent(new Event('focus')));
    fireEvent.mouseEnter(screen.getByTestId('toast').parentElement as HTMLElement);
    act(() => jest.advanceTimersByTime(8000));
    expect(screen.getByText('Paused')).toBeInTheDocument();
    fireEvent.mouseLeave(screen.getByTestId('toast').parentElement as HTMLElement);
    act(() => jest.advanceTimersByTime(6000));
    expect(screen.queryByText('Paused')).not.toBeInTheDocument();
  });

  it('are dismissed by dragging them sideways', () => {
    render(<Toasts />);
    act(() => void toast.error('Drag me'));
    const card = screen.getByTestId('toast');
    card.setPointerCapture = () => undefined;
    fireEvent.pointerDown(card, { clientX: 10, pointerId: 1 });
    fireEvent.pointerMove(card, { clientX: 150, pointerId: 1 });
    fireEvent.pointerUp(card, { clientX: 150, pointerId: 1 });
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByText('Drag me')).not.toBeInTheDocument();
  });
});
