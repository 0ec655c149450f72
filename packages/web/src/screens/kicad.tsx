export default function Screen(_: { id?: string | undefined }) {
  return <h1>kicad</h1>
}
