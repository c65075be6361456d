export function meta() {
  return [{ title: 'Workneer' }]
}

export default function Trivial() {
  return <p>ok</p>
}
